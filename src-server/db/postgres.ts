import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { log } from '../observability/logger';
import type { DB } from './schema';
import { renameStatement, statementName } from './statement';
import { timeTransactions } from './transaction-timing';

/** Kysely's PostgreSQL dialect with its transactions timed (the transaction-duration metric). */
class TimedPostgresDialect extends PostgresDialect {
  override createDriver() {
    return timeTransactions(super.createDriver());
  }
}

/**
 * PostgreSQL (docs/decisions.md "PostgreSQL"): a pool per process, every session in
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

/** The app's type parsers, for a client of its own (the move) that must read numbers as the app does. */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if ((oid === INT8 || oid === NUMERIC) && format !== 'binary') return toNumber;
    // biome-ignore lint/suspicious/noExplicitAny: pg's own overloads
    return (pg.types.getTypeParser as any)(oid, format);
  },
};

/**
 * pg's client, with the texts the hot paths run again and again (db/statement.ts) sent as named
 * statements: the server parses and plans such a text once per connection and afterwards only
 * binds and runs it, where an unnamed statement is parsed and planned on every execution (for
 * a primary-key read, most of its cost). Kysely passes every query as (text, values); statements
 * without values (BEGIN, COMMIT, the migrations' DDL) keep the simple protocol. Made when the
 * first pool opens, not when the server loads: a server on SQLite never loads pg at all.
 */
function namingClientClass() {
  return class NamingClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads of query
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
        const name = statementName(config);
        if (name !== undefined && callback === undefined) return this.named(name, config, values);
      }
      return super.query(config, values, callback);
    }

    private async named(name: string, text: string, values: unknown[]) {
      try {
        return await super.query({ name, text, values });
      } catch (err) {
        // the table under a `SELECT *` changed (another node's migration): prepare it again under
        // a new name, once; inside a transaction the first error has already failed it
        const e = err as { code?: string; message?: string };
        if (e.code !== '0A000' || !e.message?.includes('cached plan must not change result type')) throw err;
        const again = renameStatement(text) ?? name;
        return super.query({ name: again, text, values });
      }
    }
  };
}

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
    types: pgTypes,
    Client: namingClientClass(),
  });
  // an idle connection the server closed (a restart, a failover) must not crash the process
  pool.on('error', (err) => log().error(`PostgreSQL connection lost: ${err.message}`));
  const db = new Kysely<DB>({ dialect: new TimedPostgresDialect({ pool }) });
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
 * which PostgreSQL enforces itself): the text is UTF-8 and the search's trigram index has its
 * extension. Whatever the database's collation, the columns carry the ordering (textOrderProblems).
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export async function postgresProblems(db: Kysely<any>): Promise<string[]> {
  const out: string[] = [];
  const { rows } = await sql<{
    encoding: string;
  }>`SELECT current_setting('server_encoding') AS encoding`.execute(db);
  const encoding = rows[0]?.encoding ?? '';
  if (encoding !== 'UTF8')
    out.push(`the database's encoding is ${encoding}, not UTF8: create it with ENCODING 'UTF8'`);
  const trgm = await sql`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
  if (trgm.rows.length === 0) out.push('the pg_trgm extension is missing: the task search has no index');
  return out;
}

/** How many columns a finding names before it says "and N more". */
const NAMED_COLUMNS = 10;

/**
 * The app's text columns without COLLATE "C". Times, ids and cursors are compared and sorted as
 * text and must order byte by byte, as JavaScript and SQLite order them, whatever the database's
 * own collation (en_US.UTF-8 or C.UTF-8 on most services, which sort "a" before "B"): the
 * migrations give every text column COLLATE "C". One left on the database's default is reported
 * even in a database whose default is C, since a dump of it restored elsewhere would sort by that
 * server's rules. Empty when every column is right.
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export async function textOrderProblems(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ table: string; column: string; collation: string; isDefault: boolean }>`
    SELECT c.relname AS table, a.attname AS column, co.collprovider = 'd' AS "isDefault",
      CASE WHEN co.collprovider = 'd' THEN d.datcollate ELSE co.collname END AS collation
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_collation co ON co.oid = a.attcollation
    JOIN pg_database d ON d.datname = current_database()
    WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p')
      AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
      AND c.relname NOT LIKE 'kysely\\_%'
      AND NOT (co.collprovider = 'c' AND co.collcollate IN ('C', 'POSIX'))
    ORDER BY c.relname, a.attnum`.execute(db);
  if (rows.length === 0) return [];
  const named = rows
    .slice(0, NAMED_COLUMNS)
    .map((r) => `${r.table}.${r.column} ("${r.collation}"${r.isDefault ? ", the database's default" : ''})`);
  const more = rows.length > NAMED_COLUMNS ? ` and ${rows.length - NAMED_COLUMNS} more` : '';
  return [
    `${rows.length} text column(s) order by a locale's rules, not byte by byte: ${named.join(', ')}${more}; ` +
      'the migrations give every text column COLLATE "C" (one added by hand needs it too)',
  ];
}
