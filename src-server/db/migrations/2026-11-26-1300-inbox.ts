import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// An in-app inbox. Every event that sends a push (and the ones a push cannot reach)
// is also a row here, written in the transaction of the event itself. A row with no user_id was
// sent to everyone: it shows to the accounts that existed when it was sent. Reads are rows of
// inbox_reads (one per message and reader), so a message to everyone is read per person.
const statements = [
  `CREATE TABLE inbox (
    _id TEXT PRIMARY KEY,
    user_id TEXT REFERENCES users(_id),
    type TEXT NOT NULL CHECK (type IN ('isAccepted','isRejected','acceptedWithdraw','rejectedWithdraw',
      'appealOverturned','appealUpheld','taskClosed','customMessage')),
    title TEXT,
    message TEXT,
    ref TEXT,
    created_at TEXT NOT NULL
  ) STRICT`,
  // a reader's own messages newest first; the messages to everyone newest first
  'CREATE INDEX inbox_user ON inbox(user_id, created_at)',
  `CREATE TABLE inbox_reads (
    inbox_id TEXT NOT NULL REFERENCES inbox(_id),
    user_id TEXT NOT NULL REFERENCES users(_id),
    read_at TEXT NOT NULL,
    PRIMARY KEY (user_id, inbox_id)
  ) STRICT`,
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
