import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// Issue 15: a submission's proof follows its task's `requiredProof` at the time it was sent:
// an image (proof_file, as before), a link (proof_url), a code or a text (proof_text), or
// nothing. Submissions from before are screenshots.
const statements = [
  "ALTER TABLE submissions ADD COLUMN proof_type TEXT NOT NULL DEFAULT 'screenshot' CHECK (proof_type IN ('screenshot','link','code','text','none'))",
  'ALTER TABLE submissions ADD COLUMN proof_url TEXT',
  'ALTER TABLE submissions ADD COLUMN proof_text TEXT',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
