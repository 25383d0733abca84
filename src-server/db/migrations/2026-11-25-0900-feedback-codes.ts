import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// Feedback the system writes (the quick approve's fixed text, a quick reject's reason label) is
// stored as a code beside its English text, so each reader sees it in their own language. Past
// quick approvals are recognised by their exact text.
const statements = [
  `ALTER TABLE submissions ADD COLUMN feedback_code TEXT
     CHECK (feedback_code IN ('task_completed', 'rejection_reason'))`,
  `UPDATE submissions SET feedback_code = 'task_completed'
     WHERE status = 'approved' AND feedback = 'task completed successfully'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
