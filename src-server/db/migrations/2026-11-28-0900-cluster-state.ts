import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// Many app nodes on one database: the state that lived in one process's memory and
// changes what the app answers. Written once for both engines: plain tables (not STRICT), TEXT and
// BIGINT columns, no engine's own functions, so it runs unchanged on SQLite and PostgreSQL.
// - rate_limits: the sign-in and registration throttles' counts (features/auth/database-limiter.ts),
//   a hashed key each, the window's end in ms since the epoch; rows past it are deleted.
// - setup_tokens: the first-run setup link's token, as its SHA-256 (features/setup/setup-gate.ts).
// - change_counters: numbers bumped in the transaction of a write, compared by readers that keep
//   a copy in memory (the task list's ids, features/tasks/task-list-version.ts).
const statements = [
  `CREATE TABLE rate_limits (
    key TEXT NOT NULL PRIMARY KEY,
    points BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  )`,
  'CREATE INDEX rate_limits_expiry ON rate_limits(expires_at)',
  `CREATE TABLE setup_tokens (
    digest TEXT NOT NULL PRIMARY KEY,
    created_at TEXT NOT NULL
  )`,
  `CREATE TABLE change_counters (
    name TEXT NOT NULL PRIMARY KEY,
    value BIGINT NOT NULL
  )`,
  "INSERT INTO change_counters (name, value) VALUES ('task_list', 0)",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
