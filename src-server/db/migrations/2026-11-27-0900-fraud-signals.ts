import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// Fraud signals.
// - Proofs get a finer 256-bit fingerprint (proof_print) and their 64-bit hash split into four
//   16-bit bands, each indexed with the hash and the id (covering: the candidates' distances are computed
//   from the index alone): a proof within a few bits of another shares a band within two bits,
//   so the lookup reads a few index ranges instead of every proof (features/fraud/
//   fingerprint-bands.ts). Older proofs get both from the background backfill, which recomputes
//   the hash the same way.
// - A task's minimum seconds from start to proof (null: derived from its estimated time).
// - The address an account registered from; indexes to find accounts sharing a device, an
//   address or a payout account.
// - flags: the signals, one per item and kind, with both languages' explanations; dismissing
//   one keeps it with its note.
const statements = [
  'ALTER TABLE submissions ADD COLUMN proof_print TEXT',
  'ALTER TABLE submissions ADD COLUMN proof_b0 INTEGER',
  'ALTER TABLE submissions ADD COLUMN proof_b1 INTEGER',
  'ALTER TABLE submissions ADD COLUMN proof_b2 INTEGER',
  'ALTER TABLE submissions ADD COLUMN proof_b3 INTEGER',
  'CREATE INDEX submissions_proof_b0 ON submissions(proof_b0, proof_hash, _id) WHERE proof_b0 IS NOT NULL',
  'CREATE INDEX submissions_proof_b1 ON submissions(proof_b1, proof_hash, _id) WHERE proof_b1 IS NOT NULL',
  'CREATE INDEX submissions_proof_b2 ON submissions(proof_b2, proof_hash, _id) WHERE proof_b2 IS NOT NULL',
  'CREATE INDEX submissions_proof_b3 ON submissions(proof_b3, proof_hash, _id) WHERE proof_b3 IS NOT NULL',
  // the bands replace it as the lookup
  'DROP INDEX IF EXISTS submissions_proof_hash',
  'ALTER TABLE tasks ADD COLUMN min_seconds INTEGER',
  'ALTER TABLE users ADD COLUMN register_ip TEXT',
  'CREATE INDEX users_device ON users(device_id) WHERE device_id IS NOT NULL',
  'CREATE INDEX users_register_ip ON users(register_ip, created_at) WHERE register_ip IS NOT NULL',
  'CREATE INDEX withdrawals_account ON withdrawals(account_number, user_id)',
  `CREATE TABLE flags (
    _id TEXT PRIMARY KEY,
    item_type TEXT NOT NULL CHECK (item_type IN ('submission','withdrawal','user')),
    item_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(_id),
    kind TEXT NOT NULL CHECK (kind IN ('duplicate_proof','too_fast','shared_payout','shared_device','address_burst')),
    message_en TEXT NOT NULL,
    message_tr TEXT NOT NULL,
    related TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    dismissed_at TEXT,
    dismissed_by TEXT REFERENCES users(_id),
    dismiss_note TEXT
  ) STRICT`,
  'CREATE UNIQUE INDEX flags_item_kind ON flags(item_id, kind)',
  // the "flagged" filters start from the flags still open
  'CREATE INDEX flags_open ON flags(item_type, created_at) WHERE dismissed_at IS NULL',
];

// PostgreSQL: the same without STRICT (its columns are typed anyway).
const postgres = statements.map((s) => s.replace(/\) STRICT$/, ')'));

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, { sqlite: statements, postgres });
}

// Written here as it was when this migration shipped, not imported from the app: a migration
// imports only Kysely, so nothing the app changes later changes what it did.
/** The statements one by one: the SQLite text or, on PostgreSQL, its twin. */
async function runStatements(
  db: Kysely<unknown>,
  statements: { sqlite: readonly string[]; postgres: readonly string[] },
): Promise<void> {
  const list = isPostgres(db) ? statements.postgres : statements.sqlite;
  for (const statement of list) await sql.raw(statement).execute(db);
}

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
