import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** The two engines the server runs on. Only modules in db/ ask which one a handle is. */
export type Dialect = 'sqlite' | 'postgres';

// biome-ignore lint/suspicious/noExplicitAny: any database schema (migrations use Kysely<unknown>)
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

// biome-ignore lint/suspicious/noExplicitAny: as above
export function isPostgres(db: Kysely<any>): boolean {
  return dialectOf(db) === 'postgres';
}

/**
 * A migration's statements run one by one: the SQLite text (frozen as it shipped) or, on
 * PostgreSQL, its twin. Only migrations whose SQL must differ give a twin.
 */
export async function runStatements(
  // biome-ignore lint/suspicious/noExplicitAny: migrations use Kysely<unknown>
  db: Kysely<any>,
  statements: { sqlite: readonly string[]; postgres: readonly string[] },
): Promise<void> {
  const list = isPostgres(db) ? statements.postgres : statements.sqlite;
  for (const statement of list) await sql.raw(statement).execute(db);
}

/**
 * The append-only rule of the ledger and the audit log on PostgreSQL: one function raising the
 * trigger's message, called before any UPDATE or DELETE of a row and before a TRUNCATE.
 */
export function appendOnlyTriggers(table: string, message: string): string[] {
  return [
    `CREATE OR REPLACE FUNCTION forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END $$`,
    `CREATE TRIGGER ${table}_no_change BEFORE UPDATE OR DELETE ON ${table}
       FOR EACH ROW EXECUTE FUNCTION forbid_change('${message}')`,
    `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION forbid_change('${message}')`,
  ];
}
