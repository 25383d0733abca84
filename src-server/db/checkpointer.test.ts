// The WAL checkpoint worker against a real SQLite file: the WAL stays short while the server's
// connection writes without checkpointing itself, every write survives, a stop leaves the last
// connection to fold the WAL in, and a worker that cannot start hands the checkpoint back.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECKPOINT_IDLE_MS, FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer';
import { openDatabase } from './database';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-checkpoint-'));
  file = join(dir, 'taskreward.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const autocheckpoint = (db: Database.Database) => db.pragma('wal_autocheckpoint', { simple: true });

/** Rows of ~2 KB in their own transactions, with a pause now and then as requests have. */
async function writeRows(db: Database.Database, count: number): Promise<void> {
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  for (let i = 0; i < count; i++) {
    insert.run(`${i}:${'x'.repeat(2000)}`);
    if (i % 50 === 49) await wait(5);
  }
}

describe('the WAL checkpoint worker', () => {
  it('copies the WAL while the connection writes, which then starts it again; no write is lost', async () => {
    const { sqlite } = openDatabase(file, { server: true });
    sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    let told = 0;
    const checkpointer = startCheckpointer(sqlite, file, { onCopied: (frames) => (told += frames) });
    expect(autocheckpoint(sqlite)).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    // 3,000 commits: more frames than the connection's own mark, so the WAL would have been
    // copied by the connection once at least; the worker copies them as they come
    await writeRows(sqlite, 3000);
    await wait(CHECKPOINT_IDLE_MS * 3);
    expect(checkpointer.copied).toBeGreaterThan(2000);
    expect(told).toBe(checkpointer.copied);
    // every frame copied: the next write starts the WAL again from its beginning
    expect(checkpointer.last?.checkpointed).toBe(checkpointer.last?.log);
    await writeRows(sqlite, 10);
    const [peek] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    expect(peek.log).toBeLessThan(100);
    await checkpointer.stop();
    sqlite.close();
    // the last connection to close folded the WAL in and removed it
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = new Database(file, { readonly: true });
    expect(reopened.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 3010 });
    expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    reopened.close();
  });

  it('leaves the WAL to the connection when it is not running (the test above measures the worker)', async () => {
    const { sqlite } = openDatabase(file, { server: true });
    sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    await writeRows(sqlite, 3010);
    const [peek] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    expect(peek.log).toBeGreaterThan(1000);
    sqlite.close();
  });

  it('hands the checkpoint back to the connection when the worker cannot start', async () => {
    const { sqlite } = openDatabase(file, { server: true });
    const failures: unknown[] = [];
    const checkpointer = startCheckpointer(sqlite, file, {
      entry: join(dir, 'no-such-module.js'),
      onFailure: (err) => failures.push(err),
    });
    for (let i = 0; i < 100 && failures.length === 0; i++) await wait(20);
    expect(failures.length).toBe(1);
    expect(autocheckpoint(sqlite)).toBe(1000);
    await checkpointer.stop();
    sqlite.close();
  });

  it('stops at once even right after it started, and twice', async () => {
    const { sqlite } = openDatabase(file, { server: true });
    const checkpointer = startCheckpointer(sqlite, file);
    await Promise.all([checkpointer.stop(), checkpointer.stop()]);
    sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    sqlite.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });
});
