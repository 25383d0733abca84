// Transactions that end while others wait share one COMMIT (one fsync of the WAL): what each
// caller is told, what the others read meanwhile, and what is on disk, seen through a second
// connection on the same file (as another process would see it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type OpenedSqlite, openDatabase, SHARED_COMMIT_TURNS } from './database';

let dir: string;
let server: OpenedSqlite;
let other: Database.Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-shared-commit-'));
  server = openDatabase(join(dir, 'taskreward.db'), { server: true });
  await sql`create table t (id integer primary key, v text not null)`.execute(server.db);
  // a constraint checked only at COMMIT: the way to make a COMMIT fail on purpose here
  await sql`create table parent (id integer primary key)`.execute(server.db);
  await sql`create table child (id integer primary key,
    parent_id integer not null references parent(id) deferrable initially deferred)`.execute(server.db);
  other = new Database(join(dir, 'taskreward.db'), { readonly: true });
});
beforeEach(async () => {
  await sql`delete from t`.execute(server.db);
  await sql`delete from child`.execute(server.db);
  server.sqlite.pragma('wal_checkpoint(TRUNCATE)');
});
afterAll(async () => {
  other.close();
  await server.db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Rows of t as another connection sees them: what is committed. */
const committed = () =>
  (other.prepare('select v from t order by id').all() as { v: string }[]).map((r) => r.v);
/** Frames in the WAL since the last truncating checkpoint: each commit writes the pages it changed. */
const walFrames = () => (server.sqlite.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0].log;

const insert = (v: string) =>
  server.db.transaction().execute(async (trx) => {
    await sql`insert into t (v) values (${v})`.execute(trx);
    return v;
  });

describe('transactions that end together', () => {
  it('share one commit, and each caller hears of it only once it is on disk', async () => {
    const told: string[] = [];
    const all = Array.from({ length: 20 }, (_, i) =>
      insert(`r${i}`).then((v) => {
        // the caller's answer comes after the COMMIT: another connection already sees the row
        expect(committed()).toContain(v);
        told.push(v);
      }),
    );
    await Promise.all(all);
    expect(told).toHaveLength(20);
    expect(committed()).toHaveLength(20);
    const shared = walFrames();

    // the same twenty one after another: a commit each
    await sql`delete from t`.execute(server.db);
    server.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    for (let i = 0; i < 20; i++) await insert(`s${i}`);
    const alone = walFrames();
    expect(alone).toBeGreaterThanOrEqual(20);
    expect(shared).toBeLessThan(alone / 4);
  });

  it('waits a few turns of the event loop while transactions keep joining, and no more', async () => {
    // two together, then one more in each of the next turns: while the shared commit keeps
    // growing it waits, so all of them share it up to SHARED_COMMIT_TURNS turns
    // microtasks first, so the transactions begun are done and the commit's next look planned
    // before the test's own turn is asked for: each new one starts after that look
    const settle = async () => {
      for (let i = 0; i < 200; i++) await Promise.resolve();
    };
    const started: Promise<string>[] = [insert('t0'), insert('t1')];
    for (let turn = 1; turn < SHARED_COMMIT_TURNS; turn++) {
      await settle();
      await new Promise((r) => setImmediate(r));
      started.push(insert(`t${turn + 1}`));
    }
    await Promise.all(started);
    const shared = walFrames();
    expect(committed()).toHaveLength(SHARED_COMMIT_TURNS + 1);
    // one commit of the table's one page writes one or two frames; one each would be five
    expect(shared).toBeLessThanOrEqual(2);

    // alone, a transaction waits one turn: a timer set before it is not overtaken by much before
    // the COMMIT (its caller hears of it later, once the WAL's fdatasync is done)
    await sql`delete from t`.execute(server.db);
    server.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    let turns = 0;
    const count = () => {
      if (committed().includes('alone')) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    await insert('alone');
    expect(turns).toBeLessThanOrEqual(2);
  });

  it('rolls back a failing one alone, the others committed', async () => {
    const results = await Promise.allSettled([
      insert('a'),
      server.db.transaction().execute(async (trx) => {
        await sql`insert into t (v) values ('b')`.execute(trx);
        throw new Error('changed its mind');
      }),
      insert('c'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('changed its mind');
    expect(committed()).toEqual(['a', 'c']);
  });

  it('gives a read outside the transactions only what is committed, without waiting for them', async () => {
    let done = 0;
    const tx = (v: string) =>
      server.db.transaction().execute(async (trx) => {
        await sql`insert into t (v) values (${v})`.execute(trx);
        done++;
      });
    const both = Promise.all([tx('x'), tx('y')]);
    // microtasks only: both transactions' statements are done, their COMMIT not yet made
    for (let i = 0; i < 1000 && done < 2; i++) await Promise.resolve();
    expect(done).toBe(2);
    expect(server.sqlite.inTransaction).toBe(true);
    const during = await server.db
      .selectFrom('t' as never)
      .select(sql<string>`v`.as('v'))
      .execute();
    expect(during).toEqual([]);
    await both;
    const after = await server.db
      .selectFrom('t' as never)
      .select(sql<string>`v`.as('v'))
      .execute();
    expect((after as { v: string }[]).map((r) => r.v)).toEqual(['x', 'y']);
  });

  it('when the shared COMMIT fails, tells every member and leaves nothing of theirs for anyone to read', async () => {
    await sql`insert or ignore into parent (id) values (1)`.execute(server.db);
    const good = insert('kept?');
    const bad = server.db.transaction().execute(async (trx) => {
      // valid until the COMMIT checks the deferred key
      await sql`insert into child (parent_id) values (999)`.execute(trx);
    });
    const read = server.db
      .selectFrom('t' as never)
      .select(sql<string>`v`.as('v'))
      .execute();
    const [goodResult, badResult, readResult] = await Promise.allSettled([good, bad, read]);
    expect(goodResult.status).toBe('rejected');
    expect(badResult.status).toBe('rejected');
    expect(String((goodResult as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    // the read came after them in the queue: it sees the database without either
    expect(readResult.status).toBe('fulfilled');
    expect((readResult as PromiseFulfilledResult<unknown[]>).value).toEqual([]);
    expect(committed()).toEqual([]);
    expect(server.sqlite.inTransaction).toBe(false);
    // and the connection goes on: the next transaction commits
    await insert('after');
    expect(committed()).toEqual(['after']);
  });

  it('commits what is open before a single write outside a transaction; a stream reads what is committed', async () => {
    const tx = insert('p');
    const single = sql`insert into t (v) values ('q')`.execute(server.db);
    await Promise.all([tx, single]);
    expect(committed()).toEqual(['p', 'q']);
    const tx2 = insert('r');
    const rows: string[] = [];
    for await (const row of server.db
      .selectFrom('t' as never)
      .select(sql<string>`v`.as('v'))
      .stream()) {
      rows.push((row as { v: string }).v);
    }
    await tx2;
    // the stream began before r's commit (its statements had not even run)
    expect(rows).toEqual(['p', 'q']);
    expect(committed()).toEqual(['p', 'q', 'r']);
  });

  it('commits what is open when the database is closed', async () => {
    const file = join(dir, 'closing.db');
    const closing = openDatabase(file, { server: true });
    await sql`create table t (id integer primary key, v text not null)`.execute(closing.db);
    let done = false;
    const pending = closing.db.transaction().execute(async (trx) => {
      await sql`insert into t (v) values ('last')`.execute(trx);
      done = true;
    });
    // microtasks only: the transaction's statements done, its commit waiting for the event
    // loop's turn (which a timer would give it)
    for (let i = 0; i < 1000 && !done; i++) await Promise.resolve();
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(done).toBe(true);
    expect(closing.sqlite.inTransaction).toBe(true);
    await closing.db.destroy();
    await pending;
    const check = new Database(file, { readonly: true });
    expect(check.prepare('select v from t').all()).toEqual([{ v: 'last' }]);
    check.close();
  });
});
