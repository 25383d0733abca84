import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { version } from '../../package.json';
import { openApp } from '../bootstrap';
import { readConfig } from '../config';
import { openPostgres } from '../db/postgres';
import { emptyTestDatabase, testDatabaseUrl } from '../db/test-databases';
import { verifyPassword } from '../features/users/password';
import { makeUser } from '../testing/factories';
import { testsOnPostgres } from '../testing/test-app';
import { runCli } from './index';

let dir: string;
let log: MockInstance;
let err: MockInstance;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-cli-'));
  log = vi.spyOn(console, 'log').mockImplementation(() => {});
  err = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const printed = (spy: MockInstance) => spy.mock.calls.map((c) => c.join(' ')).join('\n');

async function usersIn(folder: string) {
  const opened = await openApp(readConfig({ DATA_DIR: folder }), { web: new Map() });
  try {
    return await opened.deps.db.selectFrom('users').selectAll().execute();
  } finally {
    await opened.close();
  }
}

describe('runCli help', () => {
  it.each([[['--help']], [['-h']], [['help']]])(
    'prints the command list for %j and returns 0',
    async (argv) => {
      expect(await runCli(argv)).toBe(0);
      expect(printed(log)).toMatch(/create-admin/);
      expect(printed(log)).toMatch(/serve/);
    },
  );

  it.each(['create-admin', 'serve', 'migrate', 'backup', 'restore', 'doctor'])(
    'prints the usage of %s for --help and returns 0',
    async (command) => {
      expect(await runCli([command, '--help'])).toBe(0);
      expect(printed(log)).toContain(`usage: taskreward ${command}`);
    },
  );

  it.each(['--version', '-v'])('prints the app and Node versions for %s and returns 0', async (flag) => {
    expect(await runCli([flag])).toBe(0);
    expect(printed(log)).toBe(
      `taskreward ${version}\nNode.js ${process.version} (${process.platform}-${process.arch}, ${process.execPath})`,
    );
  });

  it('refuses an unknown command with 2', async () => {
    expect(await runCli(['frobnicate'])).toBe(2);
    expect(printed(err)).toContain('unknown command "frobnicate"');
  });

  it('refuses an unknown option with 2 and the usage', async () => {
    expect(await runCli(['create-admin', '--emial', 'a@example.test'])).toBe(2);
    expect(printed(err)).toContain('usage: taskreward create-admin');
  });
});

describe('runCli create-admin', () => {
  it('creates an admin who can sign in with the given password', async () => {
    const code = await runCli([
      'create-admin',
      '--email',
      'Boss@Example.TEST',
      '--password',
      'boss-pass-1',
      '--name',
      'Patron',
      '--data',
      dir,
    ]);
    expect(code).toBe(0);
    expect(printed(log)).toContain('created');
    const users = await usersIn(dir);
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({
      email: 'boss@example.test',
      name: 'Patron',
      role: 'admin',
      status: 'active',
    });
    expect(await verifyPassword(users[0].password_hash, 'boss-pass-1')).toBe(true);
  });

  it('names the admin "Admin" when --name is left out', async () => {
    expect(
      await runCli(['create-admin', '--email', 'a@example.test', '--password', 'secret123', '--data', dir]),
    ).toBe(0);
    expect((await usersIn(dir))[0].name).toBe('Admin');
  });

  it('promotes an existing account, resets its password and lifts a ban', async () => {
    const opened = await openApp(readConfig({ DATA_DIR: dir }), { web: new Map() });
    const user = await makeUser(opened.deps.db, {
      email: 'member@example.test',
      status: 'banned',
      ban_reason: 'x',
    });
    await makeUser(opened.deps.db, { email: 'bystander@example.test' });
    await opened.close();

    const code = await runCli([
      'create-admin',
      '--email',
      'member@example.test',
      '--password',
      'new-pass-1',
      '--name',
      'Ignored',
      '--data',
      dir,
    ]);
    expect(code).toBe(0);
    expect(printed(log)).toContain('is now an admin');
    const users = await usersIn(dir);
    expect(users).toHaveLength(2);
    const promoted = users.find((u) => u._id === user._id);
    expect(promoted).toMatchObject({ role: 'admin', status: 'active', ban_reason: null, name: user.name });
    expect(await verifyPassword(promoted?.password_hash ?? '', 'new-pass-1')).toBe(true);
    expect(users.find((u) => u.email === 'bystander@example.test')?.role).toBe('user');
  });

  it.each([
    ['--email is missing', ['--password', 'secret123']],
    ['--password is missing', ['--email', 'a@example.test']],
  ])('returns 2 and writes nothing when %s', async (_label, args) => {
    expect(await runCli(['create-admin', ...args, '--data', dir])).toBe(2);
    expect(printed(err)).toContain('create-admin needs --email and --password');
    expect(await usersIn(dir)).toEqual([]);
  });

  it.each([
    [
      'a malformed email',
      ['--email', 'not-an-email', '--password', 'secret123'],
      /^Please enter a valid email address$/,
    ],
    [
      'a short password',
      ['--email', 'a@example.test', '--password', '123'],
      /^The password must be at least 6 characters$/,
    ],
    [
      'a password longer than sign-in takes',
      ['--email', 'a@example.test', '--password', 'x'.repeat(201)],
      /^The password must be at most 200 characters$/,
    ],
  ])('fails with a readable message and writes nothing for %s', async (_label, args, message) => {
    await expect(runCli(['create-admin', ...args, '--data', dir])).rejects.toThrow(message);
    expect(await usersIn(dir)).toEqual([]);
  });
});

describe('runCli migrate', () => {
  it('creates the database in the data folder and returns 0', async () => {
    expect(await runCli(['migrate', '--data', dir])).toBe(0);
    expect(printed(log)).toContain('up to date');
    expect(await usersIn(dir)).toEqual([]);
  });
});

describe('runCli backup, restore and doctor', () => {
  it('backs up, restores into a fresh folder and the doctor passes it', async () => {
    expect(
      await runCli(['create-admin', '--email', 'a@example.test', '--password', 'secret123', '--data', dir]),
    ).toBe(0);
    const archive = join(dir, 'out', 'b.tar.gz');
    expect(await runCli(['backup', archive, '--data', dir])).toBe(0);
    expect(printed(log)).toContain(`backup written to ${archive}`);
    const fresh = join(dir, 'fresh');
    expect(await runCli(['restore', archive, '--data', fresh])).toBe(0);
    expect(printed(log)).toContain(`into ${fresh}`);
    expect(await runCli(['doctor', '--data', fresh])).toBe(0);
    expect(printed(log)).toContain('all checks passed');
    expect((await usersIn(fresh)).map((u) => u.email)).toEqual(['a@example.test']);
  });

  it('backs up into the backups folder when no file is given', async () => {
    expect(await runCli(['migrate', '--data', dir])).toBe(0);
    expect(await runCli(['backup', '--data', dir])).toBe(0);
    expect(printed(log)).toMatch(/backup written to .*backups\/taskreward-\d{8}-\d{6}Z\.tar\.gz/);
  });

  it('refuses a damaged archive with 1 and says the folder was not touched', async () => {
    const bad = join(dir, 'bad.tar');
    writeFileSync(bad, 'not a backup');
    expect(await runCli(['restore', bad, '--data', join(dir, 'x')])).toBe(1);
    expect(printed(err)).toMatch(/^refused: .*The data folder was not touched\.$/);
  });

  it('asks for exactly one archive', async () => {
    expect(await runCli(['restore', '--data', dir])).toBe(2);
    expect(printed(err)).toContain('usage: taskreward restore');
  });

  it('doctor exits 1 and lists what is wrong', async () => {
    expect(await runCli(['doctor', '--data', dir])).toBe(1);
    expect(printed(err)).toContain('database: there is no database');
  });
});

describe('backup and restore with a PostgreSQL database', () => {
  it.each(['backup', 'restore'])('%s refuses and names the tool to use instead', async (command) => {
    vi.stubEnv('DATABASE_URL', 'postgres://nobody@127.0.0.1:1/none');
    try {
      const argv =
        command === 'restore' ? ['restore', join(dir, 'x.tar'), '--data', dir] : ['backup', '--data', dir];
      expect(await runCli(argv)).toBe(2);
      expect(printed(err)).toContain('the database is PostgreSQL');
      expect(printed(err)).toContain(command === 'backup' ? 'pg_dump' : 'pg_restore');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe.skipIf(!testsOnPostgres)('the commands on PostgreSQL', () => {
  it('migrate, create-admin and doctor work on an empty PostgreSQL database', async () => {
    const database = await emptyTestDatabase(testDatabaseUrl()!);
    vi.stubEnv('DATABASE_URL', database.url);
    // required of every process of a cluster
    vi.stubEnv('TOKEN_SECRET', 'a-secret-every-test-node-shares-0123456789');
    try {
      expect(await runCli(['migrate', '--data', dir])).toBe(0);
      expect(
        await runCli([
          'create-admin',
          '--email',
          'pg@example.test',
          '--password',
          'secret123',
          '--data',
          dir,
        ]),
      ).toBe(0);
      expect(printed(log)).toContain('admin pg@example.test created');
      expect(await runCli(['doctor', '--data', dir])).toBe(0);
      const { db } = openPostgres(database.url, { poolSize: 1 });
      try {
        const admins = await db.selectFrom('users').select(['email', 'role']).execute();
        expect(admins).toEqual([{ email: 'pg@example.test', role: 'admin' }]);
      } finally {
        await db.destroy();
      }
      // nothing went into the data folder's SQLite file
      expect(existsSync(join(dir, 'taskreward.db'))).toBe(false);
    } finally {
      vi.unstubAllEnvs();
      await database.drop();
    }
  });
});
