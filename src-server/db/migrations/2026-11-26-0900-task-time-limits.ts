import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// A started task has a time limit. Each task gets `time_limit_minutes` (60 unless
// set; 5 to 10,080); each user task record its `expires_at` and, once the sweep ended it, the
// status `expired` with `expired_at` and why (`end_reason`: its time ran out, or its task was
// deleted or closed). SQLite cannot widen a CHECK constraint in place, so
// user_tasks is rebuilt by SQLite's own procedure (https://sqlite.org/lang_altertable.html,
// "making other kinds of table schema changes"): foreign keys off, a new table, the rows
// copied, the old one dropped, the new one renamed, the indexes made again, the foreign keys
// checked, and on again. Records in progress at the upgrade get a full hour from it.
const rebuild = [
  'ALTER TABLE tasks ADD COLUMN time_limit_minutes INTEGER NOT NULL DEFAULT 60 CHECK (time_limit_minutes BETWEEN 5 AND 10080)',
  `CREATE TABLE user_tasks_new (
    _id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(_id),
    task_id TEXT NOT NULL REFERENCES tasks(_id),
    status TEXT NOT NULL CHECK (status IN ('in_progress','completed','expired')),
    automatic_comment TEXT,
    started_at TEXT NOT NULL,
    completed_at TEXT,
    expires_at TEXT,
    expired_at TEXT,
    end_reason TEXT CHECK (end_reason IN ('time','task_closed'))
  ) STRICT`,
  `INSERT INTO user_tasks_new (_id, user_id, task_id, status, automatic_comment, started_at, completed_at, expires_at)
    SELECT _id, user_id, task_id, status, automatic_comment, started_at, completed_at,
      CASE WHEN status = 'in_progress' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+60 minutes') END
    FROM user_tasks`,
  'DROP TABLE user_tasks',
  'ALTER TABLE user_tasks_new RENAME TO user_tasks',
  'CREATE UNIQUE INDEX user_tasks_once ON user_tasks(user_id, task_id)',
  'CREATE INDEX user_tasks_task ON user_tasks(task_id)',
  // the sweep's question: which records in progress are past their time
  "CREATE INDEX user_tasks_due ON user_tasks(expires_at) WHERE status = 'in_progress'",
];

// PostgreSQL widens the CHECK in place (the initial migration named it).
const postgres = [
  rebuild[0],
  `ALTER TABLE user_tasks ADD COLUMN expires_at TEXT, ADD COLUMN expired_at TEXT,
    ADD COLUMN end_reason TEXT CONSTRAINT user_tasks_end_reason CHECK (end_reason IN ('time','task_closed')),
    DROP CONSTRAINT user_tasks_status,
    ADD CONSTRAINT user_tasks_status CHECK (status IN ('in_progress','completed','expired'))`,
  "CREATE INDEX user_tasks_due ON user_tasks(expires_at) WHERE status = 'in_progress'",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const statement of postgres) await sql.raw(statement).execute(db);
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    await sql`UPDATE user_tasks SET expires_at = ${inAnHour} WHERE status = 'in_progress'`.execute(db);
    return;
  }
  await sql.raw('PRAGMA foreign_keys = OFF').execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      for (const statement of rebuild) await sql.raw(statement).execute(trx);
      const broken = await sql.raw('PRAGMA foreign_key_check').execute(trx);
      if (broken.rows.length > 0)
        throw new Error(`user_tasks rebuild broke ${broken.rows.length} foreign keys`);
    });
  } finally {
    await sql.raw('PRAGMA foreign_keys = ON').execute(db);
  }
}

// Written here as it was when this migration shipped, not imported from the app: a migration
// imports only Kysely, so nothing the app changes later changes what it did.
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
