import Database from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteDialect,
} from 'kysely';
import { readStampDirectly, SQLITE_STAMP_SQL } from './change-stamp';
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
}

export interface OpenedSqlite extends OpenedDatabase {
  sqlite: Database.Database;
}

/** How long the server's connection waits for another process's write lock before giving up. */
export const SERVER_BUSY_TIMEOUT_MS = 100;
/**
 * SQLite's page cache for the server's connection, in KiB (better-sqlite3 opens with 16 MB). The
 * pages the reads keep coming back to fit (the tasks table and the search index are about 4 MB
 * each at 10,000 tasks); the million-row tables are far larger than either size, and their pages
 * come from the system's file cache in both cases. What the cache fills stays in glibc's main
 * heap for the server's life, so it counts fully in its peak memory (docs/decisions.md "A young
 * generation of 8 MB").
 */
export const SERVER_CACHE_KIB = 8000;
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
 * The one connection, as Kysely's SQLite driver runs it, with two changes: statements are
 * prepared once and reused (Kysely's own driver prepares every query again), and a write that
 * finds the database locked by another process fails fast as DatabaseBusyError.
 */
class Connection implements DatabaseConnection {
  private readonly statements = new Map<string, Database.Statement>();
  private lockedUntil = 0;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly coolDownMs: number,
  ) {}

  private prepare(sql: string): Database.Statement {
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
    const stmt = this.prepare(compiled.sql);
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

/** One connection shared by every query, handed out one holder at a time (like Kysely's). */
class SqliteOneConnectionDriver implements Driver {
  private readonly connection: Connection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

  constructor(
    private readonly sqlite: Database.Database,
    coolDownMs: number,
  ) {
    this.connection = new Connection(sqlite, coolDownMs);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((r) => {
      release = r;
    });
    await previous;
    this.release = release;
    return this.connection;
  }

  /** Whether no one holds the connection now: no transaction, stream or query between its steps. */
  isFree(): boolean {
    return this.release === null && !this.sqlite.inTransaction;
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = null;
    release?.();
  }

  /** BEGIN IMMEDIATE: the write lock is taken at the start, so a busy database fails before any work. */
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
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

  async destroy(): Promise<void> {
    this.sqlite.close();
  }
}

class Dialect extends SqliteDialect {
  /** The driver Kysely made of this dialect (it makes one per instance). */
  driver: SqliteOneConnectionDriver | null = null;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly coolDownMs: number,
  ) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    this.driver = new SqliteOneConnectionDriver(this.sqlite, this.coolDownMs);
    return timeTransactions(this.driver);
  }
}

/**
 * Opens the SQLite file with settings that keep every acknowledged write: WAL,
 * synchronous=FULL, foreign keys, and a busy timeout for other processes (CLI, backup).
 */
export function openDatabase(file: string, options: OpenOptions = {}): OpenedSqlite {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${options.server ? SERVER_BUSY_TIMEOUT_MS : 5000}`);
  if (options.server) {
    sqlite.pragma(`cache_size = -${SERVER_CACHE_KIB}`);
    sqlite.pragma(`wal_autocheckpoint = ${SERVER_AUTOCHECKPOINT_PAGES}`);
  }
  const dialect = new Dialect(sqlite, options.server ? BUSY_COOL_DOWN_MS : 0);
  const db = new Kysely<DB>({ dialect });
  const stamp = sqlite.prepare(SQLITE_STAMP_SQL);
  readStampDirectly(db, () =>
    dialect.driver?.isFree() ? ((stamp.get() as { c: number; v: number } | undefined) ?? null) : null,
  );
  return { db, sqlite };
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
