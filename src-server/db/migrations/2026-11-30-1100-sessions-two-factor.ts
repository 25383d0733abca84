import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// Sign-ins become sessions the server knows, and accounts may add a second factor.
// - sessions: one row per sign-in; the token names its row (`sid`), so deleting the row ends the
//   token on every node at once. password_stamp is the keyed stamp of the password the session
//   began under: a session whose stamp no longer matches the account's password is over, however
//   the password was changed.
// - two_factor: an account's TOTP secret, encrypted with the server's secret; enabled_at is null
//   while the account is still enrolling. last_step is the last 30-second step a code was
//   accepted for: a code is accepted once, and never one older than it.
// - recovery_codes: the ten single-use codes of an account with two-factor, as keyed hashes.
// STRICT tables on SQLite (which knows INTEGER, not BIGINT, in them); on PostgreSQL the same
// without STRICT, BIGINT for the numbers, and text that orders byte by byte (COLLATE "C"), as
// SQLite's does.
function statements(postgres: boolean): string[] {
  const text = postgres ? 'TEXT COLLATE "C"' : 'TEXT';
  const int = postgres ? 'BIGINT' : 'INTEGER';
  const strict = postgres ? '' : ' STRICT';
  return [
    `CREATE TABLE sessions (
      id ${text} NOT NULL PRIMARY KEY,
      user_id ${text} NOT NULL REFERENCES users(_id),
      password_stamp ${text} NOT NULL,
      remember ${int} NOT NULL,
      created_at ${text} NOT NULL,
      last_seen_at ${text} NOT NULL,
      expires_at ${text} NOT NULL,
      user_agent ${text},
      ip ${text}
    )${strict}`,
    'CREATE INDEX sessions_user ON sessions(user_id, created_at)',
    'CREATE INDEX sessions_expiry ON sessions(expires_at)',
    `CREATE TABLE two_factor (
      user_id ${text} NOT NULL PRIMARY KEY REFERENCES users(_id),
      secret ${text} NOT NULL,
      enabled_at ${text},
      last_step ${int},
      created_at ${text} NOT NULL
    )${strict}`,
    `CREATE TABLE recovery_codes (
      user_id ${text} NOT NULL REFERENCES users(_id),
      code_hash ${text} NOT NULL,
      used_at ${text},
      PRIMARY KEY (user_id, code_hash)
    )${strict}`,
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of statements(postgres)) await sql.raw(statement).execute(db);
}
