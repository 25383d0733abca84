import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// Every proof gets a thumbnail file and a 64-bit perceptual hash at upload. Proofs
// stored before this have neither: the server fills them in the background after it starts
// (storage/proof-backfill.ts), so this migration stays quick at any size.
const statements = [
  'ALTER TABLE submissions ADD COLUMN proof_thumb TEXT',
  'ALTER TABLE submissions ADD COLUMN proof_hash TEXT',
  // the fraud signals look proofs up by hash; the backfill finds the ones without
  'CREATE INDEX submissions_proof_hash ON submissions (proof_hash)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
