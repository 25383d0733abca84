import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../testing/factories';
import { type OpenedSqlite, openDatabase } from './database';
import { latestMigrationName, migrateToLatest } from './migrate';

let dir: string;
let opened: OpenedSqlite;
let applied: string[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-db-'));
  opened = openDatabase(join(dir, 'test.db'));
  applied = await migrateToLatest(opened.db);
});
afterAll(async () => {
  await opened.db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const APP_TABLES = [
  'idempotency',
  'ledger',
  'settings',
  'submissions',
  'task_comments',
  'tasks',
  'user_tasks',
  'users',
  'withdrawals',
];

function appTables(): { name: string; sql: string }[] {
  return opened.sqlite
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' AND name IN (SELECT name FROM pragma_table_list WHERE type = 'table') ORDER BY name",
    )
    .all() as { name: string; sql: string }[];
}

describe('migrations', () => {
  it('apply every registered migration to a new database, the newest last', () => {
    expect(applied.length).toBeGreaterThan(0);
    expect(applied.at(-1)).toBe(latestMigrationName());
  });

  it('are named YYYY-MM-DD-HHMM-what', () => {
    for (const name of applied) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}-\d{4}-[a-z0-9-]+$/);
  });

  it('do nothing when run again', async () => {
    expect(await migrateToLatest(opened.db)).toEqual([]);
  });

  it('create at least the tables of the foundation', () => {
    expect(appTables().map((t) => t.name)).toEqual(expect.arrayContaining(APP_TABLES));
  });

  it('leave the SQLite schema exactly as shipped (the PostgreSQL twins change nothing on SQLite)', () => {
    // sqlite-schema.snapshot.json is the schema the migrations made before PostgreSQL twins
    // were added to them; a new migration adds its tables and indexes to it on purpose
    const rows = opened.sqlite
      .prepare('select type, name, tbl_name, sql from sqlite_master order by type, name')
      .all();
    const snapshot = JSON.parse(readFileSync(join(__dirname, 'sqlite-schema.snapshot.json'), 'utf8'));
    expect(rows).toEqual(snapshot);
  });

  // the tables of the shared cluster state are written once for both engines (PostgreSQL has no STRICT)
  const PORTABLE = ['change_counters', 'rate_limits', 'setup_tokens'];

  it('make every table STRICT but the portable ones', () => {
    // a table may also be WITHOUT ROWID (stat_counters: its key's b-tree holds the counter)
    const loose = appTables().filter((t) => !/\)\s*(WITHOUT ROWID,\s*)?STRICT\s*$/i.test(t.sql));
    expect(loose.map((t) => t.name)).toEqual(PORTABLE);
  });

  it('make the portable tables with plain SQL: TEXT and BIGINT columns, each NOT NULL', () => {
    for (const t of appTables().filter((t) => PORTABLE.includes(t.name))) {
      const columns = t.sql.slice(t.sql.indexOf('(') + 1, t.sql.lastIndexOf(')')).split(',');
      for (const column of columns)
        expect(column.trim()).toMatch(/^[a-z_]+ (TEXT|BIGINT) NOT NULL( PRIMARY KEY)?$/);
    }
  });
});

describe('the ledger', () => {
  it('takes new rows but refuses UPDATE and DELETE', async () => {
    const user = await makeUser(opened.db);
    await opened.db
      .insertInto('ledger')
      .values({
        user_id: user._id,
        amount: 500,
        kind: 'adjustment',
        ref: null,
        actor_id: null,
        created_at: 'now',
      })
      .execute();
    await expect(opened.db.updateTable('ledger').set({ amount: 1 }).execute()).rejects.toThrow(/append-only/);
    await expect(opened.db.deleteFrom('ledger').execute()).rejects.toThrow(/append-only/);
    expect(() => opened.sqlite.prepare('UPDATE ledger SET kind = kind').run()).toThrow(/append-only/);
    expect(() => opened.sqlite.prepare('DELETE FROM ledger').run()).toThrow(/append-only/);
    const rows = await opened.db.selectFrom('ledger').selectAll().where('user_id', '=', user._id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].amount).toBe(500);
  });

  it.each([
    ['a zero amount', 0, 'adjustment'],
    ['a negative reward', -100, 'reward'],
    ['a positive withdrawal hold', 100, 'withdrawal_hold'],
    ['a negative refund', -100, 'withdrawal_refund'],
    ['an unknown kind', 100, 'gift'],
    ['a fractional amount', 1.5, 'adjustment'],
  ])('refuses %s', async (_label, amount, kind) => {
    const user = await makeUser(opened.db);
    await expect(
      sql`INSERT INTO ledger (user_id, amount, kind, created_at) VALUES (${user._id}, ${amount}, ${kind}, 'now')`.execute(
        opened.db,
      ),
    ).rejects.toThrow(/constraint|cannot store/i);
  });

  it('refuses a row for a user who does not exist', async () => {
    await expect(
      opened.db
        .insertInto('ledger')
        .values({
          user_id: 'nobody',
          amount: 5,
          kind: 'adjustment',
          ref: null,
          actor_id: null,
          created_at: 'now',
        })
        .execute(),
    ).rejects.toThrow(/FOREIGN KEY/);
  });

  it('pays a reward once per reference', async () => {
    const user = await makeUser(opened.db);
    const row = {
      user_id: user._id,
      amount: 5,
      kind: 'reward' as const,
      ref: 'sub-1',
      actor_id: null,
      created_at: 'n',
    };
    await opened.db.insertInto('ledger').values(row).execute();
    await expect(opened.db.insertInto('ledger').values(row).execute()).rejects.toThrow(/UNIQUE/);
  });
});

describe('the users table', () => {
  it('refuses a negative balance', async () => {
    const user = await makeUser(opened.db, { balance: 100 });
    await expect(
      opened.db.updateTable('users').set({ balance: -1 }).where('_id', '=', user._id).execute(),
    ).rejects.toThrow(/CHECK/);
  });

  it('refuses a second account with the same email in another letter case', async () => {
    await makeUser(opened.db, { email: 'unique@example.test' });
    await expect(makeUser(opened.db, { email: 'UNIQUE@Example.Test' })).rejects.toThrow(/UNIQUE/);
  });

  it('refuses a role or status outside the lists', async () => {
    await expect(makeUser(opened.db, { role: 'root' as 'admin' })).rejects.toThrow(/CHECK/);
    await expect(makeUser(opened.db, { status: 'zombie' as 'active' })).rejects.toThrow(/CHECK/);
  });

  it('refuses a balance stored as text (STRICT)', async () => {
    const user = await makeUser(opened.db);
    expect(() =>
      opened.sqlite.prepare("UPDATE users SET balance = 'lots' WHERE _id = ?").run(user._id),
    ).toThrow(/cannot store TEXT value in INTEGER column/);
  });
});

describe('openDatabase', () => {
  it('runs WAL with synchronous=FULL, foreign keys on and a busy timeout', () => {
    expect(opened.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(opened.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    expect(opened.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(opened.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
  });
});
