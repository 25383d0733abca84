import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// A worker may appeal a rejection once, within 7 days of it; an admin overturns it
// (the proof approved and paid) or upholds it. One appeal per submission: its primary key.
const statements = [
  `CREATE TABLE appeals (
    submission_id TEXT PRIMARY KEY REFERENCES submissions(_id),
    user_id TEXT NOT NULL REFERENCES users(_id),
    message TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending','upheld','overturned')),
    created_at TEXT NOT NULL,
    decided_at TEXT,
    decided_by TEXT,
    response TEXT
  ) STRICT`,
  // the admins' filter and the dashboard's count: the pending ones, oldest first
  "CREATE INDEX appeals_pending ON appeals(created_at) WHERE status = 'pending'",
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
