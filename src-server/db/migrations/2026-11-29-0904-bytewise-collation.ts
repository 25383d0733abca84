import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. (It imports only
// Kysely, so nothing the app changes later changes what it does.)
//
// Text orders byte by byte in the app, as JavaScript compares strings and as SQLite's BINARY
// does: ISO times compared and sorted as text (deadline > now, expires_at <= cutoff, the stat
// counters' hourly buckets against '0' and each other), the ids that break ties and carry the
// keyset cursors of the exports and the admin lists, and anything sorted by name. On PostgreSQL
// that held only in a database created with LC_COLLATE 'C', which managed services rarely let
// one choose (they create databases with en_US.UTF-8 or C.UTF-8). So the rule moves from the
// database to the columns: every text column of the app's tables gets COLLATE "C", whatever the
// database's default is. Comparisons and ORDER BY take a column's collation over the default,
// the indexes are rebuilt in that order, and a pg_dump carries the COLLATE to wherever it is
// restored. SQLite already compares text byte by byte: nothing to do there.

/** The app's tables at this migration (Kysely's own are left alone). */
const TABLES = [
  'appeals',
  'audit_log',
  'change_counters',
  'flags',
  'idempotency',
  'inbox',
  'inbox_reads',
  'ledger',
  'rate_limits',
  'settings',
  'setup_tokens',
  'stat_counters',
  'submissions',
  'task_comments',
  'tasks',
  'user_tasks',
  'users',
  'withdrawals',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // rebuilding every text index of a big table may outlast the app's statement timeout; SET
  // LOCAL ends with the migrations' transaction
  await sql`SET LOCAL statement_timeout = 0`.execute(db);

  const inSchema = sql`c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
    AND c.relname = ANY(${TABLES}::text[])`;
  // a trigger that names columns (AFTER UPDATE OF ...) forbids changing their type: each is
  // dropped and made again from its own definition
  const triggers = await sql<{ table: string; name: string; definition: string }>`
    SELECT c.relname AS table, t.tgname AS name, pg_get_triggerdef(t.oid) AS definition
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE NOT t.tgisinternal AND t.tgattr::text <> '' AND ${inSchema}
    ORDER BY c.relname, t.tgname`.execute(db);
  const columns = await sql<{ table: string; column: string }>`
    SELECT c.relname AS table, a.attname AS column
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    WHERE a.attnum > 0 AND NOT a.attisdropped AND a.atttypid = 'text'::regtype AND ${inSchema}
    ORDER BY c.relname, a.attnum`.execute(db);

  for (const t of triggers.rows) await sql`DROP TRIGGER ${sql.id(t.name)} ON ${sql.id(t.table)}`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns.rows) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  // one ALTER TABLE per table: its indexes are rebuilt once
  for (const [table, names] of byTable) {
    const changes = names.map((n) => sql`ALTER COLUMN ${sql.id(n)} TYPE text COLLATE "C"`);
    await sql`ALTER TABLE ${sql.id(table)} ${sql.join(changes)}`.execute(db);
  }
  for (const t of triggers.rows) await sql.raw(t.definition).execute(db);
}
