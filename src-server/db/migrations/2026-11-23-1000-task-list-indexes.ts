import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// The public task list filters on status = 'active' and orders featured first, then by the
// chosen sort. One index per sort direction lets SQLite walk the index and stop after a page
// instead of sorting every active task (mixed ASC/DESC needs its own index).
const statements = [
  'CREATE INDEX tasks_sort_oldest ON tasks(status, is_featured DESC, created_at ASC) WHERE deleted_at IS NULL',
  'CREATE INDEX tasks_sort_reward_desc ON tasks(status, is_featured DESC, reward DESC) WHERE deleted_at IS NULL',
  'CREATE INDEX tasks_sort_reward_asc ON tasks(status, is_featured DESC, reward ASC) WHERE deleted_at IS NULL',
  // quickest puts tasks without an estimate last: the index orders by that expression too
  'CREATE INDEX tasks_sort_quickest ON tasks(status, is_featured DESC, (estimated_time IS NULL), estimated_time) WHERE deleted_at IS NULL',
  'CREATE INDEX tasks_sort_popular ON tasks(status, is_featured DESC, total_completed DESC) WHERE deleted_at IS NULL',
  // a record's latest submission, and the admin list of all submissions newest first
  'CREATE INDEX submissions_user_task ON submissions(user_task_id, created_at)',
  'CREATE INDEX submissions_created ON submissions(created_at)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
