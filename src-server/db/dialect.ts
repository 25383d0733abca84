import { type Kysely, PostgresAdapter } from 'kysely';

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
