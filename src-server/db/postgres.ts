import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';

/**
 * PostgreSQL (issue 18; docs/decisions.md "PostgreSQL"): a pool per process, every session in
 * UTC and READ COMMITTED, with bounded waits so a stuck lock becomes a 503 (db/database.ts
 * isBusyError) instead of a hung request.
 */

/** BIGINT (money, counts) and NUMERIC (sums) arrive as text; the app's numbers are safe integers. */
function toNumber(text: string): number {
  const n = Number(text);
  if (!text.includes('.') && !Number.isSafeInteger(n))
    throw new RangeError(`a database integer beyond 2^53: ${text}`);
  return n;
}

const INT8 = 20;
const NUMERIC = 1700;

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if ((oid === INT8 || oid === NUMERIC) && format !== 'binary') return toNumber;
    // biome-ignore lint/suspicious/noExplicitAny: pg's own overloads
    return (pg.types.getTypeParser as any)(oid, format);
  },
};

/** How long a statement may wait for a row or advisory lock before it fails as busy. */
export const PG_LOCK_TIMEOUT_MS = 5_000;
/** The longest statement (the admin exports stream in pages well under it). */
export const PG_STATEMENT_TIMEOUT_MS = 30_000;

export interface PostgresOptions {
  /** Connections in this process's pool (DATABASE_POOL_SIZE; 10 by default). */
  poolSize?: number;
  /** The name the server's pg_stat_activity shows. */
  applicationName?: string;
}

export interface OpenedPostgres {
  db: Kysely<DB>;
  pool: pg.Pool;
}

export function openPostgres(url: string, options: PostgresOptions = {}): OpenedPostgres {
  const settings = [
    'TimeZone=UTC',
    `lock_timeout=${PG_LOCK_TIMEOUT_MS}`,
    `statement_timeout=${PG_STATEMENT_TIMEOUT_MS}`,
    'idle_in_transaction_session_timeout=60000',
    'default_transaction_isolation=read\\ committed',
  ];
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: options.applicationName ?? 'taskreward',
    options: settings.map((s) => `-c ${s}`).join(' '),
    types,
  });
  // an idle connection the server closed (a restart, a failover) must not crash the process
  pool.on('error', (err) => console.error(`PostgreSQL connection lost: ${err.message}`));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool };
}

/**
 * SQLSTATEs and client errors that mean "the database cannot take this now; retry": a deadlock,
 * a lock or statement timeout, too many connections, the server shutting down, no connection.
 */
const BUSY_STATES = new Set([
  '40P01',
  '55P03',
  '57014',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

export function isPostgresBusy(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (
    typeof e.code === 'string' &&
    (BUSY_STATES.has(e.code) || e.code === 'ECONNREFUSED' || e.code === 'ECONNRESET')
  )
    return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return (
    message.includes('timeout exceeded when trying to connect') || message.includes('Connection terminated')
  );
}

/**
 * doctor's database checks on PostgreSQL (in place of SQLite's integrity and foreign-key checks,
 * which PostgreSQL enforces itself): the database orders text as JavaScript does (collation C:
 * times and ids are compared as text) and the search's trigram index has its extension.
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export async function postgresProblems(db: Kysely<any>): Promise<string[]> {
  const out: string[] = [];
  const { rows } = await sql<{ collate: string }>`
    SELECT datcollate AS collate FROM pg_database WHERE datname = current_database()`.execute(db);
  const collate = rows[0]?.collate ?? '';
  if (collate !== 'C' && collate !== 'POSIX')
    out.push(
      `the database's collation is "${collate}", not "C": create it with LC_COLLATE 'C' (times and ids compare as text)`,
    );
  const trgm = await sql`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
  if (trgm.rows.length === 0) out.push('the pg_trgm extension is missing: the task search has no index');
  return out;
}
