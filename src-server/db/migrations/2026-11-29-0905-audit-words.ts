import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports nothing of
// the app's: the old words and their new names are written out here as they were on this day.
//
// The audit log speaks the API's words. Three actions wrote some fields under their column
// names: a task's edit (every column it set), a task's featuring (is_featured) and a user's
// standing (ban_reason). Their rows get the names the API and the screens use, and the values
// the API gives them: is_featured's 0/1 becomes false/true, steps and requirements (stored as
// JSON text) become lists. Every other field and action already used the API's names; amounts
// stay in kuruş, as the whole log keeps them. Rows are rewritten in place (the log is
// append-only: its triggers are set aside for this one transaction and restored).
const RENAMED: Record<string, Record<string, string>> = {
  'task.update': {
    task_link: 'taskLink',
    max_completions: 'maxCompletions',
    required_proof: 'requiredProof',
    estimated_time: 'estimatedTime',
    time_limit_minutes: 'timeLimitMinutes',
    min_seconds: 'minSeconds',
    is_featured: 'isFeatured',
  },
  'task.feature': { is_featured: 'isFeatured' },
  'user.status': { ban_reason: 'banReason' },
};

/** A value as the API gives it: 0/1 of a flag as false/true, a JSON list as the list. */
function apiValue(field: string, value: unknown): unknown {
  if (field === 'isFeatured' && typeof value === 'number') return value === 1;
  if ((field === 'steps' || field === 'requirements') && typeof value === 'string') {
    try {
      const list: unknown = JSON.parse(value);
      return Array.isArray(list) ? list : value;
    } catch {
      return value;
    }
  }
  return value;
}

/** The changes of one row in the API's words; null when nothing in it changes. */
function inApiWords(action: string, text: string): string | null {
  const names = RENAMED[action] ?? {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const field = names[key] ?? key;
    // in these three actions a two-item list is always a field's [before, after]
    out[field] = Array.isArray(value) && value.length === 2 ? value.map((v) => apiValue(field, v)) : value;
  }
  const next = JSON.stringify(out);
  return next === JSON.stringify(parsed) ? null : next;
}

// the append-only triggers as the audit-log migration made them (SQLite has no "disable")
const SQLITE_TRIGGERS = [
  `CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit_log
     BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END`,
];

async function rewrite(trx: Kysely<unknown>, postgres: boolean): Promise<void> {
  if (postgres) await sql.raw('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change').execute(trx);
  else await sql.raw('DROP TRIGGER audit_no_update').execute(trx);
  const rows = await sql<{ id: number | string; action: string; changes: string }>`
    SELECT id, action, changes FROM audit_log
    WHERE action IN ('task.update', 'task.feature', 'user.status')`.execute(trx);
  for (const row of rows.rows) {
    const next = inApiWords(row.action, row.changes);
    if (next !== null) await sql`UPDATE audit_log SET changes = ${next} WHERE id = ${row.id}`.execute(trx);
  }
  if (postgres) await sql.raw('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change').execute(trx);
  else for (const statement of SQLITE_TRIGGERS) await sql.raw(statement).execute(trx);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // one transaction: the rows and the triggers' return commit together (Kysely's migrator gives
  // SQLite none of its own)
  if (db.isTransaction) await rewrite(db, postgres);
  else await db.transaction().execute((trx) => rewrite(trx, postgres));
}
