import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports nothing of
// the app's.
//
// Proof fingerprints of a new kind: of the screen's content, its status, navigation and app
// bars left out, with the prints of its three parts. The old whole-picture ones are cleared so
// the background backfill makes the new ones from the stored files (decoding every proof here
// would hold the start for minutes); a proof without them is not a lookup candidate meanwhile.
// The duplicate flags they raised and nobody dismissed are removed: the backfill raises them
// again where the new prints still match (a dismissed one stays, with its note).
// A duplicate flag keeps how similar the nearest match is (0-100), for the review queue's badge;
// other kinds have none.
const statements = [
  'ALTER TABLE flags ADD COLUMN similarity INTEGER CHECK (similarity BETWEEN 0 AND 100)',
  'UPDATE submissions SET proof_print = NULL, proof_b0 = NULL, proof_b1 = NULL, proof_b2 = NULL, proof_b3 = NULL WHERE proof_print IS NOT NULL OR proof_b0 IS NOT NULL',
  "DELETE FROM flags WHERE kind = 'duplicate_proof' AND dismissed_at IS NULL",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
