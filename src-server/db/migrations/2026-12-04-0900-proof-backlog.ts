import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// The background backfill asks, after every start, for the proofs still without their prints,
// oldest first. No index held that question, so the answer was a walk of every submission in
// time order with a row read for each: 5.8 s at a million submissions on SQLite, during which the
// one event loop answered nobody, even when the backlog is empty (as it is on any site whose
// proofs all came after prints). A partial index holds only the backlog's rows, in the order the
// backfill takes them: empty once the backfill is done, so it costs a write nothing after that.
// PostgreSQL has the same question and the same table, so the same index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE INDEX submissions_proof_backlog ON submissions(created_at, _id)
       WHERE proof_print IS NULL AND proof_file IS NOT NULL`,
    )
    .execute(db);
}
