import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// Three questions a start asks had no index, so each was a walk the one event loop waited for:
// - The background backfill asks for the proofs still without their prints, oldest first: a walk
//   of every submission in time order with a row read for each, 5.8 s at a million submissions,
//   even when the backlog is empty (as on any site whose proofs all came after prints). A partial
//   index holds only the backlog's rows, in the order the backfill takes them: empty once the
//   backfill is done, so it costs later writes nothing.
// - Whether setup is done counts the active admins: every active user's row read, 0.1-0.8 s at
//   100,000 users. The same count runs inside the transaction that edits or deletes an admin (the
//   last admin may not go), holding the write lock as long. An index by role and status answers it
//   from a few entries.
// - A single server clearing a crash's left-overs asks, for the proof files on disk, which ones a
//   submission names (its proof or its thumbnail), 500 names a statement: each statement was a walk
//   of every submission (1.5-2.2 s at a million), so the start grew with files x submissions (an
//   hour for a site with a million proofs). An index on each name makes each name one lookup.
// PostgreSQL has the same questions over the same tables, so the same indexes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE INDEX submissions_proof_backlog ON submissions(created_at, _id)
       WHERE proof_print IS NULL AND proof_file IS NOT NULL`,
    )
    .execute(db);
  await sql
    .raw('CREATE INDEX users_role_status ON users(role, status, _id) WHERE deleted_at IS NULL')
    .execute(db);
  for (const column of ['proof_file', 'proof_thumb'])
    await sql
      .raw(`CREATE INDEX submissions_${column} ON submissions(${column}) WHERE ${column} IS NOT NULL`)
      .execute(db);
}
