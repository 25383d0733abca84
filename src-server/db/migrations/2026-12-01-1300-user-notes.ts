import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// Internal notes on an account, written and read by admins only (the account never sees them).
// author_name keeps who wrote a note as they were named then, like the audit log's actor: a
// later rename or deletion of the author leaves the note readable. Notes about an account are
// erased with the account's deletion (they are about a person who asked to be forgotten).
// STRICT on SQLite; on PostgreSQL the same without STRICT and with text ordered byte by byte.
function statements(postgres: boolean): string[] {
  const text = postgres ? 'TEXT COLLATE "C"' : 'TEXT';
  const strict = postgres ? '' : ' STRICT';
  return [
    `CREATE TABLE user_notes (
      _id ${text} NOT NULL PRIMARY KEY,
      user_id ${text} NOT NULL REFERENCES users(_id),
      author_id ${text},
      author_name ${text},
      body ${text} NOT NULL,
      created_at ${text} NOT NULL
    )${strict}`,
    'CREATE INDEX user_notes_user ON user_notes(user_id, created_at)',
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const statement of statements(postgres)) await sql.raw(statement).execute(db);
}
