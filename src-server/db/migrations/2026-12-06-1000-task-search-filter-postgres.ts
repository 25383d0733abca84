import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// PostgreSQL's twin of SQLite's tasks_search_filter. A search narrowed to a category went
// through the pg_trgm index first: a common word ("anket" is in 3,000 of 10,000 tasks' folded
// text) gave thousands of candidates, each row read and its text tested again, to keep the few
// hundred of one category (3.4 ms a statement at that scale). This index holds a category's
// tasks with the two folded texts and what such a search filters and sorts on (total_completed
// left out, as in SQLite's: every approval changes it), so the planner reads one category's
// entries and tests the words on them (0.16 ms); a search without a category still takes the
// trigram index, which the planner costs against it. The texts are short (about 100 bytes
// folded), well inside an index entry's size.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql
    .raw(
      `CREATE INDEX tasks_search_filter ON tasks (category, difficulty, status)
       INCLUDE (search_title, search_body, is_featured, created_at, _id, deadline, reward, estimated_time)
       WHERE deleted_at IS NULL`,
    )
    .execute(db);
}
