// The server's connection against another process's write lock (a second connection on the
// same file takes SQLite's locks exactly as another process would), and the statement cache.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../testing/factories';
import {
  BUSY_COOL_DOWN_MS,
  DatabaseBusyError,
  isBusyError,
  type OpenedSqlite,
  openDatabase,
  SERVER_AUTOCHECKPOINT_PAGES,
  SERVER_BUSY_TIMEOUT_MS,
  SERVER_CACHE_KIB,
  SERVER_WRITER_CACHE_KIB,
} from './database';
import { migrateToLatest } from './migrate';

let dir: string;
let server: OpenedSqlite;
let other: Database.Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-db-'));
  server = openDatabase(join(dir, 'taskreward.db'), { server: true });
  await migrateToLatest(server.db);
  other = new Database(join(dir, 'taskreward.db'));
});
afterEach(() => {
  if (other.inTransaction) other.exec('ROLLBACK');
});
afterAll(async () => {
  other.close();
  await server.db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = async () =>
  Number(
    (await server.db.selectFrom('users').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n,
  );

describe('the server connection while another process holds the write lock', () => {
  it('uses a short busy timeout on the server and 5 s for the command line', () => {
    expect(server.sqlite.pragma('busy_timeout', { simple: true })).toBe(SERVER_BUSY_TIMEOUT_MS);
    const cli = openDatabase(join(dir, 'taskreward.db'));
    expect(cli.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    cli.sqlite.close();
  });

  it("keeps the server's page cache smaller than the driver's 16 MB, and the command line's as it was", () => {
    // the reads' connection keeps the pages they come back to; the writing one its transactions'
    expect(server.reader?.pragma('cache_size', { simple: true })).toBe(-SERVER_CACHE_KIB);
    expect(server.sqlite.pragma('cache_size', { simple: true })).toBe(-SERVER_WRITER_CACHE_KIB);
    expect(SERVER_CACHE_KIB + SERVER_WRITER_CACHE_KIB).toBeLessThan(16_000);
    const cli = openDatabase(join(dir, 'taskreward.db'));
    expect(cli.sqlite.pragma('cache_size', { simple: true })).toBe(-16_000);
    expect(cli.reader?.pragma('cache_size', { simple: true })).toBe(-16_000);
    cli.reader?.close();
    cli.sqlite.close();
  });

  it("checkpoints the server's WAL every 4,000 pages, the command line's every 1,000", () => {
    // frames in the WAL file (its size never shrinks after a checkpoint: the WAL starts again
    // from its beginning), one commit of a 3 KB row writing one or two of them
    const framesAfter = (options: { server?: boolean }, commits: number) => {
      const file = join(dir, `wal-${options.server ? 'server' : 'cli'}.db`);
      const opened = openDatabase(file, options);
      opened.sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
      const insert = opened.sqlite.prepare('INSERT INTO t (body) VALUES (?)');
      for (let i = 0; i < commits; i++) insert.run('x'.repeat(3000));
      // a WAL file: a 32-byte header, then frames of a 24-byte header and one page
      const page = opened.sqlite.pragma('page_size', { simple: true }) as number;
      const frames = (statSync(`${file}-wal`).size - 32) / (page + 24);
      opened.sqlite.close();
      return frames;
    };
    expect(server.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(SERVER_AUTOCHECKPOINT_PAGES);
    const cli = framesAfter({}, 2500);
    expect(cli).toBeGreaterThanOrEqual(1000);
    expect(cli).toBeLessThan(1100);
    const served = framesAfter({ server: true }, 6000);
    expect(served).toBeGreaterThanOrEqual(SERVER_AUTOCHECKPOINT_PAGES);
    expect(served).toBeLessThan(SERVER_AUTOCHECKPOINT_PAGES + 100);
  });

  it('fails a write with DatabaseBusyError within the timeout, then at once, and keeps reads going', async () => {
    await makeUser(server.db, { email: 'before@example.test' });
    await wait(BUSY_COOL_DOWN_MS + 10);
    other.exec('BEGIN IMMEDIATE');
    other.prepare("UPDATE users SET name = 'held' WHERE email = 'before@example.test'").run();

    let t0 = performance.now();
    const first = await server.db
      .transaction()
      .execute((tx) => makeUser(tx, { email: 'blocked@example.test' }))
      .catch((e: unknown) => e);
    const firstMs = performance.now() - t0;
    expect(first).toBeInstanceOf(DatabaseBusyError);
    expect(isBusyError(first)).toBe(true);
    expect(firstMs).toBeGreaterThanOrEqual(SERVER_BUSY_TIMEOUT_MS * 0.8);

    // within the cool-down a write fails without waiting for the lock, a transaction or not
    t0 = performance.now();
    await expect(makeUser(server.db, { email: 'fast@example.test' })).rejects.toBeInstanceOf(
      DatabaseBusyError,
    );
    expect(performance.now() - t0).toBeLessThan(SERVER_BUSY_TIMEOUT_MS / 2);

    // reads go on (WAL): the last committed state, without the other process's open change
    expect(await count()).toBe(1);
    const row = await server.db.selectFrom('users').select('name').executeTakeFirstOrThrow();
    expect(row.name).not.toBe('held');

    // nothing of the refused writes was left: no open transaction, no half row
    expect(server.sqlite.inTransaction).toBe(false);
    other.exec('COMMIT');
    await wait(BUSY_COOL_DOWN_MS + 10);
    await makeUser(server.db, { email: 'after@example.test' });
    const emails = (await server.db.selectFrom('users').select('email').orderBy('email').execute()).map(
      (r) => r.email,
    );
    expect(emails).toEqual(['after@example.test', 'before@example.test']);
  });
});

describe('statement reuse', () => {
  it('prepares a query once and gives the same answers with new parameters', async () => {
    const prepared: string[] = [];
    // both of the server's connections (the reads outside a transaction have their own)
    const original = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database.Database, source: string) {
      prepared.push(source);
      return original.call(this, source);
    } as typeof original;
    try {
      const byEmail = (email: string) =>
        server.db.selectFrom('users').select('email').where('email', '=', email).executeTakeFirst();
      expect((await byEmail('after@example.test'))?.email).toBe('after@example.test');
      expect((await byEmail('before@example.test'))?.email).toBe('before@example.test');
      expect(await byEmail('nobody@example.test')).toBeUndefined();
      expect(prepared.filter((s) => s.includes('"email" = ?'))).toHaveLength(1);
    } finally {
      Database.prototype.prepare = original;
    }
  });
});
