import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// payout_accounts: the account a worker last asked to be paid to (one per worker), so the
// withdraw form can offer it again. The withdrawals folder writes it when a withdrawal is
// requested; deleting the account erases it. account_number is stored normalised, as the
// withdrawal's own copy is (IBAN upper case without spaces, Papara digits only).
// STRICT on SQLite; on PostgreSQL text that orders byte by byte (COLLATE "C"), as SQLite's does.
function statements(postgres: boolean): string[] {
  const text = postgres ? 'TEXT COLLATE "C"' : 'TEXT';
  const strict = postgres ? '' : ' STRICT';
  return [
    `CREATE TABLE payout_accounts (
      user_id ${text} NOT NULL PRIMARY KEY REFERENCES users(_id),
      payment_method ${text} NOT NULL CHECK (payment_method IN ('papara', 'iban')),
      full_name ${text} NOT NULL,
      account_number ${text} NOT NULL,
      updated_at ${text} NOT NULL
    )${strict}`,
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of statements(postgres)) await sql.raw(statement).execute(db);
}
