// The server's SQLite commits without waiting for the disk (synchronous=NORMAL) and syncs the WAL
// itself on libuv's threads: what a caller is told, and what a read outside a transaction
// answers, must wait for that fdatasync. fdatasync is held or failed here through node:fs; the
// file, the connections and SQLite are the real ones.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DatabaseDurabilityError, type OpenedSqlite, openDatabase } from './database';

type Done = (err: Error | null) => void;

const sync = vi.hoisted(() => ({
  calls: 0,
  /** While true, each fdatasync waits in `held` until the test lets it go. */
  hold: false,
  held: [] as (() => void)[],
  fail: null as Error | null,
}));

vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  const fdatasync = (fd: number, done: Done) => {
    sync.calls++;
    const run = () => (sync.fail ? done(sync.fail) : real.fdatasync(fd, done));
    if (sync.hold) sync.held.push(run);
    else run();
  };
  return { ...real, default: { ...real, fdatasync }, fdatasync };
});

let dir: string;
let server: OpenedSqlite;
let other: Database.Database;

beforeEach(async () => {
  sync.calls = 0;
  sync.hold = false;
  sync.held = [];
  sync.fail = null;
  dir = mkdtempSync(join(tmpdir(), 'taskreward-durable-'));
  server = openDatabase(join(dir, 'taskreward.db'), { server: true });
  await sql`create table t (id integer primary key, v text not null)`.execute(server.db);
  other = new Database(join(dir, 'taskreward.db'), { readonly: true });
});
afterEach(async () => {
  sync.hold = false;
  for (const run of sync.held.splice(0)) run();
  other.close();
  await server.db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Rows of t as another connection sees them: what is committed, synced or not. */
const committed = () =>
  (other.prepare('select v from t order by id').all() as { v: string }[]).map((r) => r.v);

const insert = (v: string) =>
  server.db.transaction().execute(async (trx) => {
    await sql`insert into t (v) values (${v})`.execute(trx);
    return v;
  });

const readT = () =>
  server.db
    .selectFrom('t' as never)
    .select(sql<string>`v`.as('v'))
    .execute()
    .then((rows) => (rows as { v: string }[]).map((r) => r.v));

/** Turns of the event loop until `check` holds (the COMMIT runs after the turn's I/O). */
async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setImmediate(r));
  expect(check()).toBe(true);
}

// the server syncs the WAL itself on Linux only (elsewhere SQLite keeps doing it in the COMMIT)
describe.runIf(process.platform === 'linux')("the server's commits and the WAL's fdatasync", () => {
  it('runs SQLite with synchronous=NORMAL on the server; any other opening keeps FULL and syncs nothing itself', async () => {
    expect(server.sqlite.pragma('synchronous', { simple: true })).toBe(1);
    const cli = openDatabase(join(dir, 'taskreward.db'));
    try {
      expect(cli.sqlite.pragma('synchronous', { simple: true })).toBe(2);
      const before = sync.calls;
      await cli.db.transaction().execute((trx) => sql`insert into t (v) values ('cli')`.execute(trx));
      expect(sync.calls).toBe(before);
    } finally {
      await cli.db.destroy();
    }
  });

  it('tells the caller only once the WAL is synced, and a read of the commit waits for it too', async () => {
    sync.hold = true;
    let told = false;
    const tx = insert('a').then(() => {
      told = true;
    });
    // the COMMIT is made (another connection sees the row), its fdatasync not done
    await until(() => committed().includes('a') && sync.held.length === 1);
    let read: string[] | null = null;
    const reading = readT().then((rows) => {
      read = rows;
    });
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(told).toBe(false);
    expect(read).toBeNull();
    sync.held.shift()?.();
    await Promise.all([tx, reading]);
    expect(told).toBe(true);
    expect(read).toEqual(['a']);
  });

  it('goes on with the next transactions while one fdatasync runs, and the next covers all their COMMITs', async () => {
    const before = sync.calls;
    sync.hold = true;
    const first = insert('a');
    await until(() => sync.held.length === 1);
    // three more transactions, each after the other: each COMMITs while the first sync is held
    const later: Promise<string>[] = [];
    for (const v of ['b', 'c', 'd']) {
      later.push(insert(v));
      await until(() => committed().includes(v));
    }
    expect(sync.calls - before).toBe(1);
    sync.hold = false;
    sync.held.shift()?.();
    await Promise.all([first, ...later]);
    expect(sync.calls - before).toBe(2);
    expect(await readT()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('makes a write outside a transaction wait for its sync, without holding the connection meanwhile', async () => {
    sync.hold = true;
    let single = false;
    const write = sql`insert into t (v) values ('single')`.execute(server.db).then(() => {
      single = true;
    });
    await until(() => committed().includes('single') && sync.held.length === 1);
    // the connection is free: a transaction runs and COMMITs while the write waits
    const tx = insert('next');
    await until(() => committed().includes('next'));
    expect(single).toBe(false);
    sync.hold = false;
    sync.held.shift()?.();
    await Promise.all([write, tx]);
    expect(single).toBe(true);
  });

  it('fails the callers of a failed fdatasync, and every later one, with the durability error', async () => {
    sync.fail = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    await expect(insert('lost?')).rejects.toBeInstanceOf(DatabaseDurabilityError);
    // a later sync that would succeed proves nothing about the pages the failed one dropped
    sync.fail = null;
    await expect(insert('after')).rejects.toBeInstanceOf(DatabaseDurabilityError);
    await expect(readT()).rejects.toBeInstanceOf(DatabaseDurabilityError);
  });

  it('syncs what the last COMMITs wrote when the database is closed, before their callers hear of it', async () => {
    const file = join(dir, 'closing.db');
    const closing = openDatabase(file, { server: true });
    await sql`create table t (id integer primary key, v text not null)`.execute(closing.db);
    sync.hold = true;
    let told = false;
    const pending = closing.db
      .transaction()
      .execute((trx) => sql`insert into t (v) values ('last')`.execute(trx))
      .then(() => {
        told = true;
      });
    await until(() => sync.held.length === 1);
    expect(told).toBe(false);
    await closing.db.destroy();
    await pending;
    expect(told).toBe(true);
    // the last connection to close folded the WAL back into the file
    expect(existsSync(`${file}-wal`)).toBe(false);
    const check = new Database(file, { readonly: true });
    expect(check.prepare('select v from t').all()).toEqual([{ v: 'last' }]);
    check.close();
  });
});
