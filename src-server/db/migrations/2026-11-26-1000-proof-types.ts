import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// A submission's proof follows its task's `requiredProof` at the time it was sent:
// an image (proof_file, as before), a link (proof_url), a code or a text (proof_text), or
// nothing. Submissions from before are screenshots. A proof the system approved after the
// auto-approval days is marked as such.
const statements = [
  "ALTER TABLE submissions ADD COLUMN proof_type TEXT NOT NULL DEFAULT 'screenshot' CHECK (proof_type IN ('screenshot','link','code','text','none'))",
  'ALTER TABLE submissions ADD COLUMN proof_url TEXT',
  'ALTER TABLE submissions ADD COLUMN proof_text TEXT',
  // approved by the system after the auto-approval days, not by an admin
  'ALTER TABLE submissions ADD COLUMN auto_approved INTEGER NOT NULL DEFAULT 0 CHECK (auto_approved IN (0, 1))',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
