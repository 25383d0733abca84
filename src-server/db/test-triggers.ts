import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect';

/**
 * Triggers the tests plant to make a write fail or to log writes, in either engine's syntax
 *. Returns the function that removes the trigger again.
 */
export interface TestTrigger {
  name: string;
  /** e.g. `BEFORE INSERT ON submissions`, `AFTER UPDATE OF last_active ON users` */
  on: string;
  /** The trigger's one statement on SQLite, e.g. `INSERT INTO log VALUES (NEW._id, NEW.x)`. */
  sqlite: string;
  /** The same as a plpgsql statement. */
  postgres: string;
}

// biome-ignore lint/suspicious/noExplicitAny: any schema
export async function plantTrigger(db: Kysely<any>, t: TestTrigger): Promise<() => Promise<void>> {
  const table = t.on.trim().split(/\s+/).at(-1);
  if (isPostgres(db)) {
    await sql
      .raw(`CREATE FUNCTION ${t.name}_fn() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${t.postgres}; RETURN NEW; END $$`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER ${t.name} ${t.on} FOR EACH ROW EXECUTE FUNCTION ${t.name}_fn()`)
      .execute(db);
    return async () => {
      await sql.raw(`DROP TRIGGER ${t.name} ON ${table}`).execute(db);
      await sql.raw(`DROP FUNCTION ${t.name}_fn()`).execute(db);
    };
  }
  await sql.raw(`CREATE TRIGGER ${t.name} ${t.on} BEGIN ${t.sqlite}; END`).execute(db);
  return async () => {
    await sql.raw(`DROP TRIGGER ${t.name}`).execute(db);
  };
}

/** A trigger that makes the write fail with `message` (a full disk, a broken database). */
// biome-ignore lint/suspicious/noExplicitAny: any schema
export function plantFailure(db: Kysely<any>, name: string, on: string, message: string) {
  return plantTrigger(db, {
    name,
    on,
    sqlite: `SELECT RAISE(ABORT, '${message}')`,
    postgres: `RAISE EXCEPTION '${message}'`,
  });
}
