import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteDialect,
} from 'kysely';
import { leftOutOfStamp, readStampDirectly, SQLITE_STAMP_SQL } from './change-stamp';
import { isPostgres } from './dialect';
import { isPostgresBusy, openPostgres, postgresProblems, textOrderProblems } from './postgres';
import type { DB } from './schema';
import { timeTransactions } from './transaction-timing';

export type Db = Kysely<DB>;

export interface OpenedDatabase {
  db: Db;
  /**
   * The raw SQLite driver, for the few things Kysely does not do (online backup, pragmas); null
   * on PostgreSQL.
   */
  sqlite: Database.Database | null;
  /**
   * SQLite's second connection, the one the reads outside a transaction use (null in memory and on
   * PostgreSQL). Closed before `sqlite` when closing by hand: the last one to close folds the WAL
   * back into the file.
   */
  reader?: Database.Database | null;
}

export interface OpenedSqlite extends OpenedDatabase {
  sqlite: Database.Database;
  reader: Database.Database | null;
}

/** How long the server's connection waits for another process's write lock before giving up. */
export const SERVER_BUSY_TIMEOUT_MS = 100;
/**
 * SQLite's page cache for the server's reading connection, in KiB (better-sqlite3 opens with 16 MB). The
 * pages the reads keep coming back to fit (the tasks table and the search index are about 4 MB
 * each at 10,000 tasks); the million-row tables are far larger than either size, and their pages
 * come from the system's file cache in both cases. What the cache fills stays in glibc's main
 * heap for the server's life, so it counts fully in its peak memory (docs/decisions.md "A young
 * generation of 8 MB").
 */
export const SERVER_CACHE_KIB = 8000;
/**
 * The page cache of the server's writing connection, in KiB: its transactions' pages (the rows
 * they change, the right edges of the indexes they add to) until the shared commit writes them.
 * The reads outside transactions, which come back to the same pages, use the other connection's.
 */
export const SERVER_WRITER_CACHE_KIB = 4000;
/**
 * The server's connection copies its WAL into the database file (SQLite's automatic checkpoint,
 * inside the commit that crosses the mark, every request waiting) every this many pages instead
 * of SQLite's 1,000. The pages an approval or a start writes are largely the same few (the
 * counters, the task's row, the right edges of the ledger's and the audit log's indexes), so a
 * longer WAL holds each of them once for more commits, and its checkpoint copies and fsyncs less
 * per write: a bare approval transaction at the bench's scale ran 15-30% more per second and spent
 * 10-25% less CPU, its p99 8.8-9.0 -> 0.55-0.60 ms (a checkpoint now in fewer than one commit in a
 * hundred), the longest checkpoint 10-15 -> 28-29 ms. The WAL file then stays at up to 16 MB
 * (4,000 pages of 4 KiB). A checkpoint worker thread took the copy off the requests' thread
 * entirely, for about the same throughput, at 15 MB more memory for its Node environment: not
 * kept (docs/decisions.md).
 */
export const SERVER_AUTOCHECKPOINT_PAGES = 4000;
/** After a write found the database locked, further writes fail at once for this long (no probing). */
export const BUSY_COOL_DOWN_MS = 1000;
/** The Retry-After (seconds) of the 503 a locked database gives. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * Another process holds SQLite's write lock (a `sqlite3` shell, a script): the write was not
 * made, and the client gets a 503 with Retry-After (http/on-error.ts).
 */
export class DatabaseBusyError extends Error {
  constructor(cause?: unknown) {
    super('the database is locked by another process', { cause });
    this.name = 'DatabaseBusyError';
  }
}

/**
 * The WAL could not be made durable (its fdatasync failed, or the file could not be opened for
 * it). What the COMMITs wrote may already be visible and may still be lost, so from then on no
 * transaction is acknowledged and no read of them answered: the server must be restarted, and
 * SQLite's recovery at the next open keeps what the disk holds (docs/decisions.md).
 */
export class DatabaseDurabilityError extends Error {
  constructor(cause?: unknown) {
    super('the database could not make its writes durable; restart the server', { cause });
    this.name = 'DatabaseDurabilityError';
  }
}

/**
 * SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, _RECOVERY, _TIMEOUT); on PostgreSQL a
 * deadlock, a lock or statement timeout, a full or lost server (db/postgres.ts).
 */
export function isBusyError(err: unknown): boolean {
  if (err instanceof DatabaseBusyError) return true;
  if (isPostgresBusy(err)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

export interface OpenOptions {
  /**
   * The server's settings: a short busy timeout, so a write waiting for another process's lock
   * blocks the event loop at most SERVER_BUSY_TIMEOUT_MS, and a cool-down in which writes fail
   * at once with DatabaseBusyError. The command line (backup, doctor, restore) waits up to 5 s.
   * And a smaller page cache (SERVER_CACHE_KIB), held for the server's whole life.
   */
  server?: boolean;
}

/**
 * A connection, as Kysely's SQLite driver runs one, with two changes: statements are prepared
 * once and reused (Kysely's own driver prepares every query again), and a write that finds the
 * database locked by another process fails fast as DatabaseBusyError.
 */
class Connection implements DatabaseConnection {
  private readonly statements = new Map<string, Database.Statement>();
  private lockedUntil = 0;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly coolDownMs: number,
  ) {}

  prepare(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.sqlite.prepare(sql);
      // queries with IN lists of every length would grow the cache without end
      if (this.statements.size >= 500) this.statements.clear();
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.run(this.prepare(compiled.sql), compiled);
  }

  run<R>(stmt: Database.Statement, compiled: CompiledQuery): Promise<QueryResult<R>> {
    const params = compiled.parameters as unknown[];
    // a write outside a transaction (a BEGIN, or a single statement) starts by taking the lock
    const takesLock = !stmt.reader && !this.sqlite.inTransaction;
    if (takesLock && this.coolDownMs > 0 && Date.now() < this.lockedUntil) {
      return Promise.reject(new DatabaseBusyError());
    }
    try {
      if (stmt.reader) return Promise.resolve({ rows: stmt.all(params) as R[] });
      const { changes, lastInsertRowid } = stmt.run(params);
      return Promise.resolve({
        numAffectedRows: BigInt(changes),
        insertId: BigInt(lastInsertRowid),
        rows: [],
      });
    } catch (err) {
      if (!isBusyError(err)) return Promise.reject(err);
      if (this.coolDownMs > 0) this.lockedUntil = Date.now() + this.coolDownMs;
      return Promise.reject(new DatabaseBusyError(err));
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // not cached: a statement that is iterating cannot run another query meanwhile
    const stmt = this.sqlite.prepare(compiled.sql);
    for (const row of stmt.iterate(compiled.parameters as unknown[])) yield { rows: [row as R] };
  }
}

/**
 * setImmediate as the process had it when this module loaded: the shared commit must run after
 * the event loop's I/O callbacks even in a test that fakes the global timers.
 */
const afterIo = setImmediate;

/** What one holder of the connection is doing with it. */
type Holding =
  | 'plain' // statements outside any transaction
  | 'own' // its transaction began with BEGIN IMMEDIATE: the others will join it
  | 'member' // its transaction is a savepoint inside an open shared commit
  | 'waiting'; // its transaction is done, its commit is the shared commit's

const PRAGMA = /^\s*pragma\b/i;

/** The most turns of the event loop a shared COMMIT waits for more transactions to join it. */
export const SHARED_COMMIT_TURNS = 4;

/** The savepoint a transaction that joins an open shared commit runs in. */
const MEMBER = '"taskreward_member"';

/**
 * One acquisition of the database (Kysely's handle for a query, a transaction or a stream). Its
 * reads outside a transaction go to the reading connection at once; a transaction, a write or a
 * stream first waits for its turn at the writing connection, which is taken in turn.
 */
class Holder implements DatabaseConnection {
  holding: Holding = 'plain';
  /** Its turn at the writing connection, once it asked for one; undefined before. */
  turn: { release: () => void } | undefined;
  released = false;

  constructor(private readonly driver: SqliteSharedCommitDriver) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, compiled);
  }

  streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return this.driver.stream<R>(this, compiled);
  }
}

/** A transaction whose statements are done, waiting for the shared commit to answer. */
interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The SQLite change stamp's parts (db/change-stamp.ts), with the rows left out of it (the
 * heartbeats') counted at the same moment: the heartbeats leave their rows out inside their
 * transaction, so a count taken later, while one is open, would not match `c`.
 */
type Stamp = { c: number; v: number; left: number };

/**
 * The file through two connections. The writing one is taken in turn by transactions, writes and
 * streams (like Kysely's one connection), and its transactions share their commits: a
 * transaction that ends does not commit at once; it leaves its BEGIN open and hands the
 * connection on, the transactions that take it meanwhile run inside it, each in a savepoint (one
 * that fails rolls back to its savepoint alone), and one COMMIT, after the event loop has run the
 * I/O that had arrived, makes all of them durable with one fsync of the WAL (the server's file on
 * Linux: SQLite commits without it and the driver syncs the WAL itself, off the event loop). Each
 * transaction's caller hears that it committed only once the disk holds that COMMIT (or its
 * error, when it fails: then none of them was made). Reads outside a transaction go to the
 * reading connection, which sees only what is committed, so no one ever reads what a shared
 * COMMIT could still lose, and one that saw a COMMIT not yet synced is answered after the sync; a
 * write outside a transaction, or a stream, commits what is open first. An in-memory database has
 * no second connection: its reads take their turn and commit what is open first, as writes do.
 */
class SqliteSharedCommitDriver implements Driver {
  readonly writer: Connection;
  private readonly reader: Connection | null;
  private queue: Promise<void> = Promise.resolve();
  /** The transactions done inside the open BEGIN, waiting for its COMMIT; null when none is open. */
  private shared: Waiter[] | null = null;
  private commitPlanned = false;
  private streams = 0;
  private readonly commit: Database.Statement;
  private readonly rollback: Database.Statement;
  private readonly stampStatement: Database.Statement;
  /** The stamp of what is committed: read again whenever the writing connection is between transactions. */
  private committed: Stamp = { c: 0, v: 0, left: 0 };
  /** The rows left out of the stamp so far (set by openDatabase, which has the handle they are counted by). */
  leftOut: () => number = () => 0;
  /**
   * With a WAL to sync (the server's file): the COMMITs (and writes outside a transaction) made
   * so far, numbered from 1, and the last of them the disk is known to hold.
   */
  private commits = 0;
  private durable = 0;
  private syncing = false;
  private readonly syncWaiters: { seq: number; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private walFd: number | null = null;
  private syncFailure: DatabaseDurabilityError | null = null;
  private closed = false;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly readSqlite: Database.Database | null,
    coolDownMs: number,
    /**
     * The WAL file this driver syncs itself, off the event loop, after COMMITs that SQLite made
     * without their fsync (synchronous=NORMAL); null: SQLite syncs in the COMMIT (FULL).
     */
    private readonly walFile: string | null = null,
  ) {
    this.writer = new Connection(sqlite, coolDownMs);
    this.reader = readSqlite ? new Connection(readSqlite, 0) : null;
    this.commit = sqlite.prepare('commit');
    this.rollback = sqlite.prepare('rollback');
    this.stampStatement = sqlite.prepare(SQLITE_STAMP_SQL);
    this.stamp();
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Holder(this);
  }

  /** Waits for the holder's turn at the writing connection (once per holder). */
  async takeTurn(holder: Holder): Promise<void> {
    if (holder.turn && !holder.released) return;
    holder.released = false;
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((r) => {
      release = r;
    });
    holder.turn = { release };
    await previous;
  }

  private letGo(holder: Holder): void {
    if (holder.released) return;
    holder.released = true;
    holder.turn?.release();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.letGo(connection as Holder);
  }

  execute<R>(holder: Holder, compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (holder.holding !== 'plain') return this.writer.executeQuery(compiled);
    // a PRAGMA may set the connection's own state (foreign_keys, legacy_alter_table): the writing one's
    if (this.reader && !PRAGMA.test(compiled.sql)) {
      let stmt: Database.Statement | null = null;
      try {
        stmt = this.reader.prepare(compiled.sql);
      } catch {
        // the reading connection may still hold the schema of a moment inside a migration (its
        // statements commit one by one): the writing connection prepares it, or gives the error
      }
      if (stmt?.readonly) {
        const result = this.reader.run<R>(stmt, compiled);
        // it may have read a COMMIT whose WAL is not on the disk yet: answered once it is
        return this.durable < this.commits ? this.once(this.whenDurable(this.commits), result) : result;
      }
    }
    return this.writeOutside(holder, compiled);
  }

  private async once<T>(durable: Promise<void>, result: Promise<T>): Promise<T> {
    // both awaited together: a sync that fails after the read did is not left unhandled
    const [value] = await Promise.all([result, durable]);
    return value;
  }

  /**
   * A transaction's stream runs on the writing connection, in the transaction. Any other reads
   * what is committed through a connection of its own for its length (the reading connection
   * cannot run another statement while one iterates); in memory, on the writing connection in
   * turn, after committing what is open. The app streams nothing today.
   */
  async *stream<R>(holder: Holder, compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (holder.holding !== 'plain') {
      yield* this.writer.streamQuery<R>(compiled);
      return;
    }
    if (this.readSqlite) {
      const own = new Database(this.readSqlite.name, { readonly: true, fileMustExist: true });
      try {
        let first = true;
        for await (const result of new Connection(own, 0).streamQuery<R>(compiled)) {
          // its picture is taken at the first row: no row leaves before what it shows is durable
          if (first) {
            first = false;
            await this.whenDurable(this.commits);
          }
          yield result;
        }
      } finally {
        own.close();
      }
      return;
    }
    await this.takeTurn(holder);
    this.commitShared();
    this.streams++;
    try {
      yield* this.writer.streamQuery<R>(compiled);
    } finally {
      this.streams--;
    }
  }

  private async writeOutside<R>(holder: Holder, compiled: CompiledQuery): Promise<QueryResult<R>> {
    await this.takeTurn(holder);
    this.commitShared();
    const stmt = this.writer.prepare(compiled.sql);
    const result = await this.writer.run<R>(stmt, compiled);
    if (this.walFile === null) return result;
    // a write outside a transaction committed by itself, without its fsync; a read here may have
    // seen COMMITs still waiting for theirs. Either is answered once the disk holds it, the
    // connection handed on meanwhile (a holder asks for its turn again for another statement)
    if (!stmt.reader && !this.sqlite.inTransaction) this.commits++;
    const seq = this.commits;
    if (seq <= this.durable) return result;
    this.letGo(holder);
    await this.whenDurable(seq);
    return result;
  }

  /**
   * The change stamp of what the reads outside a transaction see: read from the writing
   * connection when it is between transactions; while one is open (no other process can commit
   * then: it holds the write lock) the one read after the last commit.
   */
  stamp(): Stamp {
    if (!this.sqlite.inTransaction && this.streams === 0) {
      const { c, v } = this.stampStatement.get() as { c: number; v: number };
      this.committed = { c, v, left: this.leftOut() };
    }
    return this.committed;
  }

  /**
   * BEGIN IMMEDIATE: the write lock is taken at the start, so a busy database fails before any
   * work. Inside an open shared commit, a savepoint of it.
   */
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const holder = connection as Holder;
    await this.takeTurn(holder);
    if (this.shared) {
      await this.writer.executeQuery(CompiledQuery.raw(`savepoint ${MEMBER}`));
      holder.holding = 'member';
    } else {
      await this.writer.executeQuery(CompiledQuery.raw('begin immediate'));
      holder.holding = 'own';
    }
  }

  /** Ends the transaction's part and waits for the shared COMMIT that makes it durable. */
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const holder = connection as Holder;
    if (holder.holding === 'member') {
      await this.writer.executeQuery(CompiledQuery.raw(`release ${MEMBER}`));
    } else if (holder.holding !== 'own' || this.shared) {
      throw new Error(`commit of a transaction that is ${holder.holding}`);
    }
    const shared = this.shared ?? [];
    this.shared = shared;
    holder.holding = 'waiting';
    const done = new Promise<void>((resolve, reject) => shared.push({ resolve, reject }));
    this.planCommit();
    this.letGo(holder);
    await done;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const holder = connection as Holder;
    const was = holder.holding;
    holder.holding = 'plain';
    if (was === 'member') {
      await this.writer.executeQuery(CompiledQuery.raw(`rollback to ${MEMBER}`));
      await this.writer.executeQuery(CompiledQuery.raw(`release ${MEMBER}`));
    } else if (was === 'own' && this.sqlite.inTransaction) {
      await this.writer.executeQuery(CompiledQuery.raw('rollback'));
    }
    // 'waiting': the shared commit failed and rolled back every member already
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  /**
   * The shared COMMIT, once the I/O callbacks of this turn of the event loop (the requests that
   * arrived together) have run. While transactions keep joining it, turn after turn, it waits
   * for another turn (up to SHARED_COMMIT_TURNS in all): requests that arrived a moment apart
   * join too. Then it takes its place in the queue like any holder, behind the transactions
   * already waiting, which join it. A transaction alone waits one turn.
   */
  private planCommit(): void {
    if (this.commitPlanned) return;
    this.commitPlanned = true;
    let seen = this.shared?.length ?? 0;
    let turns = 1;
    const check = () => {
      const shared = this.shared;
      if (!shared) {
        this.commitPlanned = false;
        return;
      }
      if (shared.length > seen && turns < SHARED_COMMIT_TURNS) {
        seen = shared.length;
        turns++;
        afterIo(check);
        return;
      }
      this.commitPlanned = false;
      const holder = new Holder(this);
      void this.takeTurn(holder).then(() => {
        try {
          this.commitShared();
        } finally {
          this.letGo(holder);
        }
      });
    };
    afterIo(check);
  }

  /** Commits the open shared transaction now, if one is open; its members hear the outcome. */
  commitShared(): void {
    const shared = this.shared;
    if (!shared) return;
    this.shared = null;
    try {
      this.commit.run();
    } catch (err) {
      // a failed COMMIT may leave the transaction open (SQLITE_BUSY) or have rolled it back
      if (this.sqlite.inTransaction) this.rollback.run();
      const cause = isBusyError(err) ? new DatabaseBusyError(err) : err;
      for (const member of shared) member.reject(cause);
      return;
    } finally {
      this.stamp();
    }
    if (this.walFile === null) {
      for (const member of shared) member.resolve();
      return;
    }
    this.whenDurable(++this.commits).then(
      () => {
        for (const member of shared) member.resolve();
      },
      (err) => {
        for (const member of shared) member.reject(err);
      },
    );
  }

  /**
   * Resolves once the disk holds COMMIT number `seq` (at once when it does already). One
   * fdatasync of the WAL at a time, on libuv's threads: the event loop goes on with the next
   * transactions meanwhile, and the next fdatasync covers every COMMIT made while one ran.
   */
  private whenDurable(seq: number): Promise<void> {
    if (this.syncFailure) return Promise.reject(this.syncFailure);
    if (seq <= this.durable || this.walFile === null) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.syncWaiters.push({ seq, resolve, reject });
      this.syncWal();
    });
  }

  private syncWal(): void {
    if (this.syncing || this.closed || this.syncWaiters.length === 0) return;
    const upTo = this.commits;
    let fd: number;
    try {
      fd = this.walDescriptor();
    } catch (err) {
      this.failSync(err);
      return;
    }
    this.syncing = true;
    fdatasync(fd, (err) => {
      this.syncing = false;
      if (this.closed) return;
      if (err) {
        this.failSync(err);
        return;
      }
      this.settleUpTo(upTo);
      this.syncWal();
    });
  }

  private walDescriptor(): number {
    // opened for writing too, though it writes nothing: some systems flush only such a handle
    if (this.walFd === null) this.walFd = openSync(this.walFile as string, 'r+');
    return this.walFd;
  }

  private settleUpTo(upTo: number): void {
    if (upTo > this.durable) this.durable = upTo;
    let kept = 0;
    for (const waiter of this.syncWaiters) {
      if (waiter.seq <= upTo) waiter.resolve();
      else this.syncWaiters[kept++] = waiter;
    }
    this.syncWaiters.length = kept;
  }

  /**
   * A failed fdatasync may have dropped the pages it did not write (Linux marks them clean), so a
   * later one that succeeds proves nothing: every waiter, and every later one, gets the error.
   */
  private failSync(err: unknown): void {
    this.syncFailure ??= new DatabaseDurabilityError(err);
    for (const waiter of this.syncWaiters.splice(0)) waiter.reject(this.syncFailure);
  }

  async destroy(): Promise<void> {
    this.commitShared();
    if (this.walFile !== null && !this.closed) {
      // what the last COMMITs wrote, synced here and now: the close must not outrun their callers
      this.closed = true;
      if (this.commits > this.durable && !this.syncFailure) {
        try {
          fdatasyncSync(this.walDescriptor());
          this.settleUpTo(this.commits);
        } catch (err) {
          this.failSync(err);
        }
      }
      for (const waiter of this.syncWaiters.splice(0)) waiter.reject(new Error('the database was closed'));
      if (this.walFd !== null) closeSync(this.walFd);
      this.walFd = null;
    }
    // the writing connection last: the last one to close folds the WAL back into the file
    this.readSqlite?.close();
    this.sqlite.close();
  }
}

class Dialect extends SqliteDialect {
  /** The driver Kysely made of this dialect (it makes one per instance). */
  driver: SqliteSharedCommitDriver | null = null;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly readSqlite: Database.Database | null,
    private readonly coolDownMs: number,
    private readonly walFile: string | null,
  ) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    this.driver = new SqliteSharedCommitDriver(this.sqlite, this.readSqlite, this.coolDownMs, this.walFile);
    return timeTransactions(this.driver);
  }

  // the driver hands its writing connection out in turn itself (and early, to a transaction
  // joining a shared commit), and its reads need no turn: Kysely's own lock around the
  // connection would hold every holder until the one before it let go
  override createAdapter(): DialectAdapter {
    return new TakenInTurnAdapter();
  }
}

class TakenInTurnAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/** The WAL's path as SQLite names it: the main database's full path (SQLite's own) and "-wal". */
function walFileOf(sqlite: Database.Database): string {
  const main = (sqlite.pragma('database_list') as { name: string; file: string }[]).find(
    (d) => d.name === 'main',
  );
  if (!main?.file) throw new Error('the database has no file for its WAL');
  return `${main.file}-wal`;
}

const inMemory = (file: string) => file === '' || file === ':memory:' || file.startsWith('file::memory:');

/**
 * The connection the reads outside a transaction use: it only reads (query_only), and sees what
 * is committed. It opens after the writing connection has put the file in WAL mode.
 */
function openReader(file: string, options: OpenOptions): Database.Database {
  const reader = new Database(file, { fileMustExist: true });
  reader.pragma('query_only = ON');
  reader.pragma(`busy_timeout = ${options.server ? SERVER_BUSY_TIMEOUT_MS : 5000}`);
  if (options.server) reader.pragma(`cache_size = -${SERVER_CACHE_KIB}`);
  return reader;
}

/**
 * Opens the SQLite file with settings that keep every acknowledged write: WAL,
 * synchronous=FULL (the server's file on Linux: NORMAL, with the driver's own fdatasync of the WAL
 * before any caller hears of a commit), foreign keys, and a busy timeout for other processes (CLI,
 * backup).
 */
export function openDatabase(file: string, options: OpenOptions = {}): OpenedSqlite {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${options.server ? SERVER_BUSY_TIMEOUT_MS : 5000}`);
  if (options.server) {
    sqlite.pragma(`cache_size = -${SERVER_WRITER_CACHE_KIB}`);
    sqlite.pragma(`wal_autocheckpoint = ${SERVER_AUTOCHECKPOINT_PAGES}`);
  }
  // the server's file: SQLite commits without waiting for the disk, and the driver syncs the WAL
  // itself off the event loop before any caller hears of the commit (SqliteSharedCommitDriver).
  // On Linux, where it is measured and tested: elsewhere (the desktop app on macOS or Windows)
  // libuv's fdatasync is another call than SQLite's, so SQLite keeps syncing in the COMMIT
  const syncsItself = options.server === true && !inMemory(file) && process.platform === 'linux';
  if (syncsItself) sqlite.pragma('synchronous = NORMAL');
  const reader = inMemory(file) ? null : openReader(file, options);
  const dialect = new Dialect(
    sqlite,
    reader,
    options.server ? BUSY_COOL_DOWN_MS : 0,
    syncsItself ? walFileOf(sqlite) : null,
  );
  const db = new Kysely<DB>({ dialect });
  const driver = dialect.driver;
  if (driver) {
    driver.leftOut = () => leftOutOfStamp(db);
    readStampDirectly(db, () => driver.stamp());
  }
  return { db, sqlite, reader };
}

/**
 * The server's database: PostgreSQL when a `postgres://` URL is given (DATABASE_URL), otherwise
 * the SQLite file.
 */
export function openConfiguredDatabase(
  where: { databaseUrl: string | null; file: string; poolSize?: number; applicationName?: string },
  options: OpenOptions = {},
): OpenedDatabase {
  if (where.databaseUrl) {
    const { db } = openPostgres(where.databaseUrl, {
      poolSize: where.poolSize,
      ...(where.applicationName ? { applicationName: where.applicationName } : {}),
    });
    return { db, sqlite: null };
  }
  return openDatabase(where.file, options);
}

/**
 * The engine's own checks for doctor: SQLite's integrity check (a damaged file stops the
 * other checks) and foreign-key check; on PostgreSQL, which enforces both itself, its settings.
 */
export async function engineProblems(
  opened: OpenedDatabase,
): Promise<{ damaged: string[]; problems: string[] }> {
  if (!opened.sqlite) return { damaged: [], problems: await postgresProblems(opened.db) };
  let damaged: string[];
  try {
    const integrity = opened.sqlite.pragma('integrity_check') as { integrity_check: string }[];
    damaged = integrity.map((r) => r.integrity_check).filter((m) => m !== 'ok');
  } catch (err) {
    damaged = [(err as Error).message];
  }
  if (damaged.length > 0) return { damaged: damaged.map((m) => `SQLite integrity: ${m}`), problems: [] };
  const fks = opened.sqlite.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
  return {
    damaged: [],
    problems: fks.map((fk) => `${fk.table} row ${fk.rowid} points at a missing ${fk.parent} row`),
  };
}

/**
 * Text columns that would not order byte by byte, for a database at the newest migration (older
 * ones are told to migrate instead). SQLite compares text byte by byte unless a column says
 * otherwise, and the migrations' only exception (the email's NOCASE) is an equality rule.
 */
export async function textOrderingProblems(opened: OpenedDatabase): Promise<string[]> {
  return opened.sqlite ? [] : textOrderProblems(opened.db);
}

/**
 * Runs read-only checks on one consistent picture of the database: on PostgreSQL a REPEATABLE
 * READ, READ ONLY transaction (nodes may be writing meanwhile). On SQLite as before, statement
 * by statement: a transaction there would be BEGIN IMMEDIATE, holding the server's writes for
 * the whole check. Inside a transaction, in that transaction.
 */
export async function inSnapshot<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> {
  // a transaction already open is its own picture (the move checks its target before committing)
  if (!isPostgres(db) || db.isTransaction) return fn(db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(fn);
}
