import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
} from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { changeStamp, leaveOutOfStamp } from './change-stamp';
import { openDatabase } from './database';
import { openPostgres } from './postgres';
import { testDatabaseUrl } from './test-databases';

// PostgreSQL's stamp statements, answered when the test says: the order of sending and answering
// is what decides which request may share which statement. The statement itself (the snapshot on
// a real server) is run by every PostgreSQL test of the remembered reads (tasks.list-race.test.ts,
// signed-in-reads.test.ts with TEST_DATABASE_URL).
function heldServer() {
  const sent: { sql: string; answer: (snapshot: string) => void; fail: (err: Error) => void }[] = [];
  const connection: DatabaseConnection = {
    executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      return new Promise((resolve, reject) => {
        sent.push({
          sql: query.sql,
          answer: (s) => resolve({ rows: [{ s } as R] }),
          fail: reject,
        });
      });
    },
    // biome-ignore lint/correctness/useYield: never streamed here
    async *streamQuery() {
      throw new Error('not streamed');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return { db, sent };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('the change stamp on PostgreSQL', () => {
  it('serves the requests that arrive while a statement is out with one statement sent after them', async () => {
    const { db, sent } = heldServer();
    const first = changeStamp(db);
    await turn();
    expect(sent).toHaveLength(1);
    expect(sent[0].sql).toContain('pg_current_snapshot()');
    // these arrive while the first is out: its snapshot may be older than they are
    const later = [changeStamp(db), changeStamp(db), changeStamp(db)];
    await turn();
    expect(sent).toHaveLength(1);
    sent[0].answer('1:5:');
    expect(await first).toBe('1:5:');
    await turn();
    // one statement for the three, sent only now
    expect(sent).toHaveLength(2);
    // one arriving while that one is out waits for the one after it
    const last = changeStamp(db);
    sent[1].answer('1:7:');
    expect(await Promise.all(later)).toEqual(['1:7:', '1:7:', '1:7:']);
    await turn();
    expect(sent).toHaveLength(3);
    sent[2].answer('1:8:');
    expect(await last).toBe('1:8:');
  });

  it('sends a statement at once when none is out, and a failed one fails only its own requests', async () => {
    const { db, sent } = heldServer();
    const first = changeStamp(db);
    const second = changeStamp(db);
    await turn();
    expect(sent).toHaveLength(1);
    sent[0].fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await turn();
    // the waiting request is not given the failed answer: its own statement goes out
    expect(sent).toHaveLength(2);
    sent[1].answer('2:2:');
    expect(await second).toBe('2:2:');
    // nothing out: the next request's statement is sent at once
    const third = changeStamp(db);
    await turn();
    expect(sent).toHaveLength(3);
    sent[2].answer('2:3:');
    expect(await third).toBe('2:3:');
  });
});

/**
 * A TCP relay in front of PostgreSQL that holds every answer for `delayMs` (a database across a
 * network): a statement is run at once, and its answer is still on its way for that long.
 */
async function slowAnswers(url: string, delayMs: number) {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const server = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(server);
    client.on('data', (chunk) => server.write(chunk));
    // the same delay for every chunk keeps them in order
    server.on('data', (chunk) => setTimeout(() => client.write(chunk), delayMs));
    const end = () => {
      client.destroy();
      server.destroy();
    };
    for (const s of [client, server]) s.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const slow = new URL(url);
  slow.hostname = '127.0.0.1';
  slow.port = String((relay.address() as AddressInfo).port);
  return {
    url: slow.toString(),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}

describe.runIf(testDatabaseUrl())(
  'the change stamp from a PostgreSQL server whose answers take 80 ms',
  () => {
    it('never gives a request a snapshot taken before a commit that answered before the request began', async () => {
      const url = testDatabaseUrl() as string;
      const relay = await slowAnswers(url, 80);
      const { db } = openPostgres(relay.url, { poolSize: 2 });
      // another node, near its database: its commits answer long before the slow node hears back
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      const visible = async (xid: string, snapshot: string | null) =>
        (await other.query('SELECT pg_visible_in_snapshot($1::xid8, $2::pg_snapshot) AS v', [xid, snapshot]))
          .rows[0].v as boolean;
      try {
        await changeStamp(db);
        for (let round = 0; round < 3; round++) {
          // sent now, run by the server at once; its answer is 80 ms away
          const early = changeStamp(db);
          await new Promise((r) => setTimeout(r, 25));
          const commit = await other.query<{ x: string }>('SELECT txid_current()::text AS x');
          const xid = commit.rows[0].x;
          // this request begins after the commit answered: its stamp must count it
          const late = await changeStamp(db);
          expect(await visible(xid, late)).toBe(true);
          // and the case was real: the statement that was out when it began had run before the commit
          expect(await visible(xid, await early)).toBe(false);
        }
      } finally {
        await other.end();
        await db.destroy();
        await relay.close();
      }
    });
  },
);

describe('the change stamp on SQLite, read without the driver queue', () => {
  function opened() {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-stamp-'));
    const { db, sqlite } = openDatabase(join(dir, 'stamp.db'));
    sqlite.exec('create table t (x integer)');
    return {
      db,
      sqlite,
      close: async () => {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  it('stays at what is committed while a transaction is in progress, and moves with every write', async () => {
    const { db, close } = opened();
    try {
      const before = await changeStamp(db);
      expect(await changeStamp(db)).toBe(before);
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      const tx = db.transaction().execute(async (trx) => {
        await sql`insert into t (x) values (1)`.execute(trx);
        await held;
      });
      // the transaction holds the writing connection; the reads outside it see what is
      // committed, and the stamp says so: it comes back at once, unmoved
      await new Promise((r) => setTimeout(r, 20));
      expect(await changeStamp(db)).toBe(before);
      release();
      await tx;
      const after = await changeStamp(db);
      expect(after).not.toBe(before);
      expect(await changeStamp(db)).toBe(after);
      await sql`insert into t (x) values (2)`.execute(db);
      expect(await changeStamp(db)).not.toBe(after);
    } finally {
      await close();
    }
  });

  it('does not move while a transaction leaves its rows out, nor after it commits', async () => {
    const { db, close } = opened();
    try {
      const before = await changeStamp(db);
      let during: string | null = null;
      await db.transaction().execute(async (trx) => {
        await sql`insert into t (x) values (1)`.execute(trx);
        leaveOutOfStamp(db, 1);
        // read while the row is left out but not committed: the stamp of what is committed,
        // with the rows left out as they were when it was read
        during = await changeStamp(db);
      });
      expect(during).toBe(before);
      expect(await changeStamp(db)).toBe(before);
      await sql`insert into t (x) values (2)`.execute(db);
      expect(await changeStamp(db)).not.toBe(before);
    } finally {
      await close();
    }
  });

  it('is read during a stream, and sees another connection commit', async () => {
    const { db, sqlite, close } = opened();
    try {
      for (let i = 0; i < 5; i++) await sql`insert into t (x) values (${i})`.execute(db);
      const stream = sql<{ x: number }>`select x from t`.execute(db);
      await stream;
      const rows = db
        .selectFrom('t' as never)
        .select('x' as never)
        .stream();
      const first = await rows.next();
      expect(first.done).toBe(false);
      const during = await changeStamp(db);
      // a commit by another connection while the stream is open moves it at once
      const meanwhile = new Database(sqlite.name);
      meanwhile.exec('insert into t (x) values (8)');
      meanwhile.close();
      expect(await changeStamp(db)).not.toBe(during);
      await rows.return?.(undefined);
      expect(typeof during).toBe('string');
      // another connection to the same file (the command line, a second process) moves it too
      const other = new Database(sqlite.name);
      other.exec('insert into t (x) values (9)');
      other.close();
      expect(await changeStamp(db)).not.toBe(during);
    } finally {
      await close();
    }
  });
});
