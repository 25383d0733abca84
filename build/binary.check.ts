// The single binary, copied alone into an empty folder and run with no Node on the PATH and no
// node_modules anywhere near: it serves the web app and the API, and backup, restore and doctor
// work through it. Run by `npm run test:binary` (which builds the binary first) and by `npm test`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupToRestore, type Operator } from '../src-server/cli/backup-journey';
import { MALLOC_TUNABLE, MALLOC_TUNABLES } from '../src-server/cli/malloc-tunables';
import { moveJourney } from '../src-server/cli/move/move-journey';
import { emptyTestDatabase } from '../src-server/db/test-databases';
import { pngFile } from '../src-server/storage/image-fixtures';
import { startS3Server } from '../src-server/testing/s3-server';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist/binary', process.platform === 'win32' ? 'taskreward.exe' : 'taskreward');
const present = existsSync(built);
if (!present)
  console.warn(`\nSKIPPED: no single binary at ${built}. Run "npm run test:binary" to build and test it.\n`);

let box: string;
let exe: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  if (!present) return;
  box = mkdtempSync(join(tmpdir(), 'taskreward-binary-'));
  exe = join(box, 'taskreward');
  copyFileSync(built, exe);
  // nothing but the binary: no Node on the PATH, a home of its own for the native-module cache
  mkdirSync(join(box, 'home'));
  mkdirSync(join(box, 'empty-path'));
  env = { HOME: join(box, 'home'), PATH: join(box, 'empty-path'), PORT: '0' };
});
afterAll(() => {
  if (box) rmSync(box, { recursive: true, force: true });
});

function cli(...args: string[]) {
  const res = spawnSync(exe, args, { cwd: box, env, encoding: 'utf8' });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

async function serveOn(
  data: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ url: string; child: ChildProcess; output(): string; stop(): Promise<number | null> }> {
  const child = spawn(exe, ['serve', '--data', data], {
    cwd: box,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line: ${out}`)), 20_000);
    const seen = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
  });
  return {
    url,
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** A profile photo through the server's image pipeline (sharp); the stored photo's content type. */
async function uploadPhoto(url: string, token: string): Promise<string | null> {
  const form = new FormData();
  form.set('name', 'Patron');
  form.set('profileImage', new Blob([new Uint8Array(pngFile(16, 12))], { type: 'image/png' }), 'me.png');
  const put = await fetch(`${url}/api/users/me`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(put.status).toBe(200);
  const photo = ((await put.json()) as { data: { profileImage: string } }).data.profileImage;
  const image = await fetch(`${url}${photo}`);
  expect(image.status).toBe(200);
  return image.headers.get('content-type');
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'boss@example.test', password: 'boss-pass-1' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

describe.runIf(present)('the single binary in an empty folder', () => {
  it('answers --help for every command', () => {
    const help = cli('--help');
    expect(help.code).toBe(0);
    for (const command of [
      'serve',
      'migrate',
      'create-admin',
      'backup',
      'restore',
      'doctor',
      'move-to-postgres',
    ]) {
      expect(help.out).toContain(command);
      const one = cli(command, '--help');
      expect([one.code, one.out]).toEqual([0, expect.stringContaining(`usage: taskreward ${command}`)]);
    }
  });

  it('reports the Node it embeds (24.x, the one that built it) with --version', () => {
    const run = cli('--version');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^taskreward \d+\.\d+\.\d+\nNode\.js v24\.\d+\.\d+ \(\S+, single binary\)\n$/);
    // built by `npm test` with the Node running these tests: the same version is inside
    expect(run.out).toContain(
      `Node.js ${process.version} (${process.platform}-${process.arch}, single binary)`,
    );
  });

  it('serves the app and the API, backs up while serving, and restores into a fresh folder', async () => {
    expect(
      cli('create-admin', '--email', 'boss@example.test', '--password', 'boss-pass-1', '--data', 'data').code,
    ).toBe(0);
    const server = await serveOn('data');
    try {
      // it started itself again with glibc's malloc tuned, as the same process, its arguments
      // once (its Node flags come from inside it: src-server/cli/malloc-tunables.ts)
      const pid = server.child.pid;
      // (glibc 2.36 ends each tunable it read with a NUL in the environment's bytes: /proc shows the first)
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const tunables = environ.find((v) => v.startsWith('GLIBC_TUNABLES='))?.slice('GLIBC_TUNABLES='.length);
      expect([MALLOC_TUNABLE, MALLOC_TUNABLES[0]]).toContain(tunables);
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)).toEqual([
        exe,
        'serve',
        '--data',
        'data',
      ]);
      const page = await fetch(`${server.url}/`);
      const html = await page.text();
      expect([page.status, html]).toEqual([200, expect.stringContaining('<div id="root">')]);
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      const asset = await fetch(`${server.url}${script}`);
      expect([asset.status, asset.headers.get('content-type')]).toEqual([
        200,
        'text/javascript; charset=utf-8',
      ]);
      const settings = await fetch(`${server.url}/api/settings`);
      expect(((await settings.json()) as { success: boolean }).success).toBe(true);
      const token = await login(server.url);
      const me = await fetch(`${server.url}/api/users/me`, { headers: { Authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      // an upload goes through sharp (libvips unpacked beside its addon) and the file store inside the binary
      const form = new FormData();
      form.set('name', 'Patron');
      form.set('profileImage', new Blob([new Uint8Array(pngFile(16, 12))], { type: 'image/png' }), 'me.png');
      const put = await fetch(`${server.url}/api/users/me`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      expect(put.status).toBe(200);
      const photo = ((await put.json()) as { data: { profileImage: string } }).data.profileImage;
      const image = await fetch(`${server.url}${photo}`);
      expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);

      const backup = cli('backup', 'copy.tar.gz', '--data', 'data');
      expect(backup).toEqual({ code: 0, out: expect.stringContaining('backup written to') });
      const refused = cli('restore', 'copy.tar.gz', '--data', 'data');
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('in use by a running server');
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(readdirSync(join(box, 'data'))).not.toContain('server.lock');
    // the addons were unpacked at their node_modules paths into the user's cache folder, sharp's
    // libvips beside its addon
    const cached = readdirSync(join(box, 'home', '.cache', 'taskreward'), { recursive: true }).map(String);
    expect(cached.filter((f) => f.endsWith('.node')).map((f) => f.split(sep).slice(2, 3)[0])).toEqual(
      expect.arrayContaining(['argon2', 'better-sqlite3', '@img']),
    );
    expect(cached.some((f) => /sharp-libvips-[^/]+[\\/]lib[\\/]libvips-cpp\./.test(f))).toBe(true);

    expect(cli('restore', 'copy.tar.gz', '--data', 'restored')).toEqual({
      code: 0,
      out: expect.stringContaining('restored copy.tar.gz'),
    });
    expect(cli('doctor', '--data', 'restored')).toEqual({
      code: 0,
      out: expect.stringContaining('all checks passed'),
    });
    const again = await serveOn('restored');
    try {
      await login(again.url);
    } finally {
      await again.stop();
    }
    // it never needed anything beside itself
    expect(existsSync(join(box, 'node_modules'))).toBe(false);
    expect(existsSync(join(box, 'dist'))).toBe(false);
  });

  it('backs up every kind of stored file, by hand and by its schedule, and restores it fresh and over the folder', async () => {
    // the journey of the server bundle (src-server/cli/backup-journey.test.ts), through the binary:
    // its scheduled backups are the binary running itself
    const binary: Operator = {
      cli(args, extra = {}) {
        const res = spawnSync(exe, args, { cwd: box, env: { ...env, ...extra }, encoding: 'utf8' });
        return { code: res.status, out: `${res.stdout}${res.stderr}` };
      },
      serve: (data, extra = {}) => serveOn(data, extra),
    };
    await backupToRestore(binary, join(box, 'journey'));
  }, 240_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'moves a folder with every kind of row and file to PostgreSQL and a bucket, served alike by two nodes',
    async () => {
      // the move journey of the server bundle (src-server/cli/move/move-journey.test.ts), through the binary
      const binary: Operator = {
        cli(args, extra = {}) {
          const res = spawnSync(exe, args, { cwd: box, env: { ...env, ...extra }, encoding: 'utf8' });
          return { code: res.status, out: `${res.stdout}${res.stderr}` };
        },
        serve: (data, extra = {}) => serveOn(data, extra),
      };
      const database = await emptyTestDatabase(process.env.TEST_DATABASE_URL as string, 'taskreward_move');
      const s3 = await startS3Server();
      try {
        await moveJourney(binary, join(box, 'move'), { databaseUrl: database.url, storeEnv: s3.env });
      } finally {
        await s3.close();
        await database.drop();
      }
    },
    300_000,
  );

  it('keeps the files in an S3 bucket with the AWS SDK it carries inside', async () => {
    const s3 = await startS3Server();
    try {
      expect(
        cli('create-admin', '--email', 'boss@example.test', '--password', 'boss-pass-1', '--data', 's3-data')
          .code,
      ).toBe(0);
      const server = await serveOn('s3-data', s3.env);
      let photo: string;
      try {
        const token = await login(server.url);
        const form = new FormData();
        form.set('name', 'Patron');
        form.set(
          'profileImage',
          new Blob([new Uint8Array(pngFile(16, 12))], { type: 'image/png' }),
          'me.png',
        );
        const put = await fetch(`${server.url}/api/users/me`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${token}` },
          body: form,
        });
        expect(put.status).toBe(200);
        photo = ((await put.json()) as { data: { profileImage: string } }).data.profileImage;
        const image = await fetch(`${server.url}${photo}`);
        expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      expect(await s3.keys()).toEqual([`images/${photo.split('/').pop()}`]);
      expect(readdirSync(join(box, 's3-data', 'files'), { recursive: true })).toEqual([]);
      const doctor = spawnSync(exe, ['doctor', '--data', 's3-data'], {
        cwd: box,
        env: { ...env, ...s3.env },
        encoding: 'utf8',
      });
      expect([doctor.status, doctor.stdout]).toEqual([0, expect.stringContaining(`S3 bucket ${s3.bucket}`)]);
      const backup = spawnSync(exe, ['backup', 's3-copy.tar.gz', '--data', 's3-data'], {
        cwd: box,
        env: { ...env, ...s3.env },
        encoding: 'utf8',
      });
      expect([backup.status, backup.stderr]).toEqual([
        2,
        expect.stringContaining('refused: files are in S3 bucket'),
      ]);
      expect(existsSync(join(box, 's3-copy.tar.gz'))).toBe(false);
    } finally {
      await s3.close();
    }
  });

  it("falls back to sharp's WebAssembly build where the native one cannot load, and says so", async () => {
    // the native addon unpacked in the cache, made unloadable (as on a CPU or libc it was not built for)
    const cache = join(box, 'home', '.cache', 'taskreward');
    const addon = readdirSync(cache, { recursive: true })
      .map(String)
      .find((f) => /@img[\\/]sharp-[^\\/]+[\\/]lib[\\/]sharp-[^\\/]+\.node$/.test(f));
    expect(addon).toBeDefined();
    writeFileSync(join(cache, addon as string), 'not an addon');
    const server = await serveOn('data');
    try {
      expect(await uploadPhoto(server.url, await login(server.url))).toBe('image/png');
      expect(server.output()).toMatch(
        /sharp's native build could not load .*: using its WebAssembly build instead/,
      );
    } finally {
      await server.stop();
    }
    // and on request, with the native one there
    const asked = await serveOn('data', { TASKREWARD_SHARP: 'wasm' });
    try {
      expect(await uploadPhoto(asked.url, await login(asked.url))).toBe('image/png');
      expect(asked.output()).toContain('TASKREWARD_SHARP=wasm: sharp runs its WebAssembly build');
    } finally {
      await asked.stop();
    }
  });

  it('stops cleanly on SIGTERM or SIGINT sent twice to its process group (lock removed, database closed)', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const data = join(box, `group-stop-${signal}`);
      // the leader of a process group of its own, as a terminal or a process manager starts it
      const child = spawn(exe, ['serve', '--data', data], {
        cwd: box,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let out = '';
      const exited = new Promise<number | string | null>((resolve) =>
        child.once('exit', (code, sig) => resolve(code ?? sig)),
      );
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no "listening on" line: ${out}`)), 20_000);
          const seen = (d: Buffer) => {
            out += d.toString();
            if (out.includes('listening on')) {
              clearTimeout(timer);
              resolve();
            }
          };
          child.stdout.on('data', seen);
          child.stderr.on('data', seen);
          void exited.then(() => reject(new Error(`the server exited before listening: ${out}`)));
        });
        const pgid = Number(child.pid);
        // the group's signal, then the same again 50 ms later (npm's forward, a second Ctrl-C)
        process.kill(-pgid, signal);
        await new Promise((r) => setTimeout(r, 50));
        try {
          process.kill(-pgid, signal);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
        }
        expect(await exited, out).toBe(0);
        const left = ['server.lock', 'taskreward.db-wal', 'taskreward.db-shm'].filter((n) =>
          existsSync(join(data, n)),
        );
        expect(left).toEqual([]);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }
  });
});
