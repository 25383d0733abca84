import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// The duplicate lookup's keys: one for each of the six parts of a proof's content instead of
// four 16-bit bands of the whole content's hash. A part's key is bits 1 to 21 of its 64-bit
// pHash, which the stored print already holds (64 hex digits of the whole print, then 16 for
// each part), so the keys are made here from proof_print, no picture decoded: the part's first
// six hex digits, shifted right by two, masked to 21 bits. proof_b0..b3 take the first four
// parts' keys and proof_b4, proof_b5 are added for the last two. A proof whose print is not of
// the content kind (none yet: the backfill makes it) has no keys, as before.
// Flags stay as they are: whether two proofs show the same picture is judged on their prints,
// which do not change.
// The indexes are dropped before the update and built again after it (building one from the
// sorted rows is much faster than keeping it up to date row by row on a large table).

const PARTS = 6;
/** The whole print's hex digits, then each part's. */
const PRINT_HEX = 64;
const PART_HEX = 16;
const CONTENT_PRINT_LENGTH = PRINT_HEX + PARTS * PART_HEX;

/** Part `p`'s key from proof_print, as SQL. */
function partKey(postgres: boolean, p: number): string {
  const find = postgres ? 'strpos' : 'instr';
  const from = PRINT_HEX + p * PART_HEX + 1;
  const terms: string[] = [];
  for (let i = 0; i < 6; i++) {
    const digit = `(${find}('0123456789abcdef', lower(substr(proof_print, ${from + i}, 1))) - 1)`;
    terms.push(`${digit} * ${16 ** (5 - i)}`);
  }
  return `(((${terms.join(' + ')}) >> 2) & 2097151)`;
}

function statements(postgres: boolean): string[] {
  const keys = Array.from({ length: PARTS }, (_, p) => `proof_b${p} = ${partKey(postgres, p)}`);
  const none = Array.from({ length: PARTS }, (_, p) => `proof_b${p} = NULL`);
  return [
    ...[0, 1, 2, 3].map((b) => `DROP INDEX IF EXISTS submissions_proof_b${b}`),
    'ALTER TABLE submissions ADD COLUMN proof_b4 INTEGER',
    'ALTER TABLE submissions ADD COLUMN proof_b5 INTEGER',
    `UPDATE submissions SET ${keys.join(', ')} WHERE length(proof_print) = ${CONTENT_PRINT_LENGTH}`,
    `UPDATE submissions SET ${none.join(', ')}
     WHERE proof_b0 IS NOT NULL AND (proof_print IS NULL OR length(proof_print) <> ${CONTENT_PRINT_LENGTH})`,
    ...Array.from(
      { length: PARTS },
      (_, b) =>
        `CREATE INDEX submissions_proof_b${b} ON submissions(proof_b${b}, proof_hash, _id) WHERE proof_b${b} IS NOT NULL`,
    ),
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // rebuilding the indexes of a large table may outlast the app's statement timeout; SET LOCAL
  // ends with the migrations' transaction
  if (postgres) await sql`SET LOCAL statement_timeout = 0`.execute(db);
  for (const statement of statements(postgres)) await sql.raw(statement).execute(db);
}
