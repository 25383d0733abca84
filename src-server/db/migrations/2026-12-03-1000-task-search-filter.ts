import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// A search narrowed to one category read every full-text match of its words first (3,000 tasks
// for "anket" at 10,000 tasks: each survey task has the word in its folded body) and then each
// matching task's row, to keep the few hundred of that category. This index holds, per category,
// difficulty and status, the two folded search columns: the list reads the tasks of its category
// (a tenth of them) from the index alone, tests the words on the folded text it holds, and reads
// the row of a task only when it matches. deleted_at is left out as in the sort indexes: a
// deleted task is never listed. The texts are short (about 100 bytes folded), so the entries fit
// their pages. PostgreSQL keeps its own search (a pg_trgm GIN index its planner costs), so the
// index is SQLite's alone.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  const columns = 'category, difficulty, status, search_title, search_body';
  await sql.raw(`CREATE INDEX tasks_search_filter ON tasks(${columns}) WHERE deleted_at IS NULL`).execute(db);
}
