// The move's refusals, each writing nothing, and its discovery of tables and types from the two
// schemas: a table added by a later change (here by hand, on both sides) moves without a line of
// the move knowing it, in dependency order, its flags, bytes and times turned into the twin's types.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { openPostgres } from '../../db/postgres';
import { emptyTestDatabase, testDatabaseUrl } from '../../db/test-databases';
import { DataFolder } from '../../storage/data-folder';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission } from '../../testing/money-factories';
import { testsOnPostgres } from '../../testing/test-app';
import { type MoveConfig, MoveRefused, moveToPostgres } from './move';
import { folderPrint } from './move-journey';
import type { Progress } from './progress';

const said: string[] = [];
const quiet: Progress = {
  step: () => ({ add() {}, end() {} }),
  line: (text) => said.push(text),
  stop() {},
};

let root: string;
let target: { url: string; drop: () => Promise<void> };
beforeEach(async () => {
  said.length = 0;
  root = mkdtempSync(join(tmpdir(), 'taskreward-move-'));
  target = await emptyTestDatabase(testDatabaseUrl() as string, 'taskreward_move');
});
afterEach(async () => {
  rmSync(root, { recursive: true, force: true });
  await target?.drop();
});

/** A SQLite folder with an admin, a funded worker and a pending submission. */
async function makeFolder(extra?: (db: ReturnType<typeof openDatabase>) => Promise<void>): Promise<string> {
  const folder = new DataFolder(join(root, 'data'));
  folder.prepare();
  const opened = openDatabase(folder.dbFile);
  try {
    await migrateToLatest(opened.db);
    const admin = await makeUser(opened.db, { role: 'admin', email: 'admin@move.test' });
    const worker = await makeUser(opened.db, { email: 'worker@move.test' });
    await fund(opened.db, worker._id, 4_250, admin._id);
    await makePendingSubmission(opened.db, worker._id);
    await extra?.(opened);
  } finally {
    await opened.db.destroy();
  }
  return folder.root;
}

function config(dataDir: string): MoveConfig {
  return { dataDir, databaseUrl: target.url, s3: null, filesDir: null };
}

async function query<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** The target's tables and their row counts: what "nothing written" is checked against. */
async function targetState(): Promise<Record<string, number>> {
  const tables = await query<{ t: string }>(
    "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  const out: Record<string, number> = {};
  for (const { t } of tables)
    out[t] = (await query<{ n: number }>(`SELECT count(*)::int AS n FROM "${t}"`))[0].n;
  return out;
}

async function expectRefusal(dataDir: string, message: RegExp): Promise<void> {
  const before = { folder: folderPrint(dataDir), target: await targetState() };
  const err = await moveToPostgres(config(dataDir), quiet).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MoveRefused);
  expect((err as Error).message).toMatch(message);
  expect(folderPrint(dataDir)).toEqual(before.folder);
  expect(await targetState()).toEqual(before.target);
}

describe.skipIf(!testsOnPostgres)('move-to-postgres', () => {
  it('refuses while a server holds the folder, writing nothing', async () => {
    const data = await makeFolder();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(new DataFolder(data).lockFile, `${holder.pid}\n`);
      await expectRefusal(data, /in use by a running server \(pid \d+\)/);
      expect(await targetState()).toEqual({});
    } finally {
      holder.kill();
    }
  });

  it('refuses a target that already holds rows of the app', async () => {
    const data = await makeFolder();
    await moveToPostgres(config(data), quiet);
    await expectRefusal(data, /already holds the app's rows: .*users \(2\)/);
  });

  it('refuses a target whose schema is at another migration', async () => {
    const data = await makeFolder();
    await query(
      'CREATE TABLE kysely_migration (name varchar(255) PRIMARY KEY, timestamp varchar(255) NOT NULL)',
    );
    await query("INSERT INTO kysely_migration VALUES ('2099-01-01-0000-from-the-future', '2099-01-01')");
    await expectRefusal(data, /schema is at migration "2099-01-01-0000-from-the-future"/);
  });

  it('refuses a folder in which doctor finds a problem', async () => {
    const data = await makeFolder(async ({ db }) => {
      await db
        .updateTable('users')
        .set({ balance: 99_999 })
        .where('email', '=', 'worker@move.test')
        .execute();
    });
    await expectRefusal(data, /doctor found 1 problem\(s\).*\n.*money: .*balance/);
    expect(await targetState()).toEqual({});
  });

  it('refuses a folder whose table the target lacks, before writing a row', async () => {
    const data = await makeFolder(async ({ sqlite }) => {
      sqlite.exec('CREATE TABLE only_here (id TEXT PRIMARY KEY) STRICT');
    });
    const err = await moveToPostgres(config(data), quiet).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/lacks what the folder holds: table only_here/);
    const state = await targetState();
    // (the empty target was migrated: its schema, and only the migrations' own rows)
    expect(state.users).toBe(0);
    expect(state.ledger).toBe(0);
  });

  it('moves a table it was never told of, in dependency order, with the twin types', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 0, 42]);
    const data = await makeFolder(async ({ sqlite }) => {
      sqlite.exec(`CREATE TABLE a_later_table (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL REFERENCES users(_id), flag INTEGER NOT NULL, bytes BLOB,
        label TEXT NOT NULL, at TEXT NOT NULL) STRICT`);
      const user = sqlite.prepare("SELECT _id FROM users WHERE email = 'worker@move.test'").get() as {
        _id: string;
      };
      const insert = sqlite.prepare(
        'INSERT INTO a_later_table (id, user_id, seq, flag, bytes, label, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      insert.run('x1', user._id, 7, 1, bytes, 'Çağrı', '2026-11-27T10:00:00.000Z');
      insert.run('x2', user._id, 9, 0, null, 'b', '2026-11-27T11:30:00.000Z');
    });
    const { db } = openPostgres(target.url, { poolSize: 1 });
    try {
      await migrateToLatest(db);
      await sql`CREATE TABLE a_later_table (id TEXT COLLATE "C" NOT NULL UNIQUE,
        user_id TEXT COLLATE "C" NOT NULL REFERENCES users(_id),
        seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        flag BOOLEAN NOT NULL, bytes BYTEA, label TEXT COLLATE "C" NOT NULL, at TIMESTAMPTZ NOT NULL)`.execute(
        db,
      );
    } finally {
      await db.destroy();
    }
    const report = await moveToPostgres(config(data), quiet);
    const order = report.tables.map((t) => t.name);
    expect(order.indexOf('a_later_table')).toBeGreaterThan(order.indexOf('users'));
    expect(report.sequences.a_later_table).toBe(9);
    const rows = await query<{ id: string; flag: boolean; bytes: Buffer | null; label: string; at: Date }>(
      'SELECT id, flag, bytes, label, at FROM a_later_table ORDER BY id',
    );
    expect(rows).toEqual([
      { id: 'x1', flag: true, bytes, label: 'Çağrı', at: new Date('2026-11-27T10:00:00.000Z') },
      { id: 'x2', flag: false, bytes: null, label: 'b', at: new Date('2026-11-27T11:30:00.000Z') },
    ]);
    // the next id the twin hands out follows the folder's last
    const [next] = await query<{ seq: string }>(
      "INSERT INTO a_later_table (id, user_id, flag, label, at) SELECT 'x3', user_id, true, 'c', now() FROM a_later_table LIMIT 1 RETURNING seq",
    );
    expect(Number(next.seq)).toBe(10);
    expect(said.join('\n')).toContain('doctor on the target: all checks passed');
  });

  it("carries the task list's version, and the twin's triggers move it again after the copy", async () => {
    let version = 0;
    const data = await makeFolder(async ({ sqlite }) => {
      version = (
        sqlite.prepare("SELECT value FROM change_counters WHERE name = 'task_list'").get() as {
          value: number;
        }
      ).value;
    });
    expect(version).toBeGreaterThan(0); // the folder's task was counted by its own trigger
    await moveToPostgres(config(data), quiet);
    const read = async () =>
      Number(
        (await query<{ value: string }>("SELECT value FROM change_counters WHERE name = 'task_list'"))[0]
          .value,
      );
    expect(await read()).toBe(version);
    // turned back on after the copy: a task filled on the target moves every node's lists
    await query("UPDATE tasks SET status = 'completed'");
    expect(await read()).toBe(version + 1);
  });

  it('carries hostile text, empty against NULL, json, bytes, flags and big numbers exactly through COPY', async () => {
    // every character COPY's text format gives a meaning to, its end-of-data line, quotes of
    // every kind, text outside the Basic Multilingual Plane, and the empty string beside NULL
    const hostile = [
      'tab\there',
      'line\nbreak\r\nand a carriage return\r',
      'back\\slash \\t \\n',
      '\\N',
      '\\.',
      'ends with a backslash\\',
      '"double" \'single\' `back` ,;|',
      'Çağrı Ünlü İğdır 😀 \u2028 \u00a0',
      '',
      ' ',
    ];
    const json = JSON.stringify({ note: 'a\tb\nc \\ "q"', list: hostile });
    const bytes = Buffer.from([0, 9, 10, 13, 92, 78, 255]);
    const data = await makeFolder(async ({ sqlite }) => {
      const worker = sqlite.prepare("SELECT _id FROM users WHERE email = 'worker@move.test'").get() as {
        _id: string;
      };
      sqlite
        .prepare("UPDATE users SET bio = ?, phone = '', address = NULL WHERE _id = ?")
        .run(hostile.join('|'), worker._id);
      sqlite
        .prepare(
          "INSERT INTO audit_log (at, actor_id, action, target_type, target_id, changes) VALUES ('2026-11-27T10:00:00.000Z', NULL, 'test.hostile', 'user', ?, ?)",
        )
        .run(worker._id, json);
      sqlite.exec(`CREATE TABLE hostile_values (
        id INTEGER PRIMARY KEY, label TEXT, doc TEXT, bytes BLOB, flag INTEGER, big INTEGER, ratio REAL) STRICT`);
      const insert = sqlite.prepare('INSERT INTO hostile_values VALUES (?, ?, ?, ?, ?, ?, ?)');
      hostile.forEach((text, i) => {
        insert.run(
          i + 1,
          text,
          json,
          i === 0 ? bytes : i === 1 ? Buffer.alloc(0) : null,
          i % 2,
          2n ** 62n + BigInt(i),
          i / 3,
        );
      });
      insert.run(100, null, null, null, null, null, null);
    });
    const { db } = openPostgres(target.url, { poolSize: 1 });
    try {
      await migrateToLatest(db);
      await sql`CREATE TABLE hostile_values (id BIGINT PRIMARY KEY, label TEXT COLLATE "C", doc JSONB,
        bytes BYTEA, flag BOOLEAN, big BIGINT, ratio DOUBLE PRECISION)`.execute(db);
    } finally {
      await db.destroy();
    }
    const report = await moveToPostgres(config(data), quiet);
    expect(report.tables.find((t) => t.name === 'hostile_values')?.rows).toBe(hostile.length + 1);
    const rows = await query<{
      id: string;
      label: string | null;
      doc: unknown;
      bytes: Buffer | null;
      flag: boolean | null;
      big: string | null;
      ratio: number | null;
    }>('SELECT id, label, doc, bytes, flag, big::text AS big, ratio FROM hostile_values ORDER BY id');
    expect(rows).toEqual([
      ...hostile.map((text, i) => ({
        id: String(i + 1),
        label: text,
        doc: JSON.parse(json),
        bytes: i === 0 ? bytes : i === 1 ? Buffer.alloc(0) : null,
        flag: i % 2 === 1,
        big: String(2n ** 62n + BigInt(i)),
        ratio: i / 3,
      })),
      { id: '100', label: null, doc: null, bytes: null, flag: null, big: null, ratio: null },
    ]);
    const [user] = await query<{ bio: string; phone: string | null; address: string | null }>(
      "SELECT bio, phone, address FROM users WHERE email = 'worker@move.test'",
    );
    expect(user).toEqual({ bio: hostile.join('|'), phone: '', address: null });
    const [entry] = await query<{ changes: string }>(
      "SELECT changes FROM audit_log WHERE action = 'test.hostile'",
    );
    expect(entry.changes).toBe(json);
    // and the audit log's digest, taken over every column of every row, was equal on both sides
    expect(said.join('\n')).toMatch(/sha256 of audit_log \(\d+ rows\): equal/);
  });

  it('refuses without DATABASE_URL', async () => {
    const data = await makeFolder();
    const err = await moveToPostgres({ ...config(data), databaseUrl: null }, quiet).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/set DATABASE_URL/);
  });
});
