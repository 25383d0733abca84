import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// The review screen filters by task; one task's proofs, newest first, from an index
// (the worker filter has submissions_user already).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('CREATE INDEX submissions_task ON submissions(task_id, created_at, _id)').execute(db);
}
