import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports nothing of
// the app's.
//
// The audit log keeps who did what as they were then: the actor's name and email are copied
// into each row when it is written, so a later rename leaves past rows as they were and a
// deleted admin's rows keep their identity (a deletion scrubs the users row). Rows written
// before get them from users, once; an actor deleted before this migration has nothing left to
// copy (their users row was scrubbed) and keeps NULL. The log is append-only: its update
// trigger is set aside for this one transaction and restored.
// PostgreSQL's text columns order byte by byte, as SQLite's do, whatever the database's default
// collation; SQLite knows no "C" collation by that name
const columns = (postgres: boolean) =>
  ['actor_name', 'actor_email'].map(
    (name) => `ALTER TABLE audit_log ADD COLUMN ${name} TEXT${postgres ? ' COLLATE "C"' : ''}`,
  );

const backfill = `UPDATE audit_log SET
    actor_name = (SELECT u.name FROM users u WHERE u._id = audit_log.actor_id AND u.deleted_at IS NULL),
    actor_email = (SELECT u.email FROM users u WHERE u._id = audit_log.actor_id AND u.deleted_at IS NULL)
  WHERE actor_id IS NOT NULL`;

// the update trigger as the audit-log migration made it (SQLite has no "disable")
const sqliteTrigger = `CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit_log
     BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END`;

async function change(trx: Kysely<unknown>, postgres: boolean): Promise<void> {
  for (const statement of columns(postgres)) await sql.raw(statement).execute(trx);
  if (postgres) {
    await sql.raw('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change').execute(trx);
    await sql.raw(backfill).execute(trx);
    await sql.raw('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change').execute(trx);
    return;
  }
  await sql.raw('DROP TRIGGER audit_no_update').execute(trx);
  await sql.raw(backfill).execute(trx);
  await sql.raw(sqliteTrigger).execute(trx);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // one transaction: the columns, the rows and the trigger's return commit together (Kysely's
  // migrator gives SQLite none of its own)
  if (db.isTransaction) await change(db, postgres);
  else await db.transaction().execute((trx) => change(trx, postgres));
}
