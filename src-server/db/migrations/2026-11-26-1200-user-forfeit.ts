import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// Deleting a user leaves no money or slot behind. The admin's forfeit moves a deleted
// user's balance out with a ledger row of its own kind (`forfeit`, negative, the admin as actor,
// the user's id as its ref: once per user by ledger_once), and the user's records in progress end
// with the reason `user_deleted`. SQLite cannot widen a CHECK constraint in place, so both
// tables are rebuilt by SQLite's own procedure (https://sqlite.org/lang_altertable.html):
// foreign keys off, a new table, the rows copied with their ids, the old one dropped, the new one
// renamed, its indexes and triggers made again, the foreign keys checked, and on again.
const rebuild = [
  `CREATE TABLE ledger_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL REFERENCES users(_id),
    amount INTEGER NOT NULL CHECK (amount <> 0),
    kind TEXT NOT NULL CHECK (kind IN ('reward','withdrawal_hold','withdrawal_refund','adjustment','forfeit')),
    ref TEXT,
    actor_id TEXT,
    created_at TEXT NOT NULL,
    CHECK ((kind = 'reward' AND amount > 0) OR (kind = 'withdrawal_hold' AND amount < 0)
      OR (kind = 'withdrawal_refund' AND amount > 0) OR kind = 'adjustment'
      OR (kind = 'forfeit' AND amount < 0))
  ) STRICT`,
  `INSERT INTO ledger_new (id, user_id, amount, kind, ref, actor_id, created_at)
    SELECT id, user_id, amount, kind, ref, actor_id, created_at FROM ledger ORDER BY id`,
  'DROP TABLE ledger',
  'ALTER TABLE ledger_new RENAME TO ledger',
  'CREATE INDEX ledger_user ON ledger(user_id)',
  "CREATE UNIQUE INDEX ledger_once ON ledger(kind, ref) WHERE kind <> 'adjustment'",
  `CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
     BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END`,
  `CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
     BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END`,
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
    end_reason TEXT CHECK (end_reason IN ('time','task_closed','user_deleted'))
  ) STRICT`,
  `INSERT INTO user_tasks_new (_id, user_id, task_id, status, automatic_comment, started_at, completed_at, expires_at, expired_at, end_reason)
    SELECT _id, user_id, task_id, status, automatic_comment, started_at, completed_at, expires_at, expired_at, end_reason
    FROM user_tasks`,
  'DROP TABLE user_tasks',
  'ALTER TABLE user_tasks_new RENAME TO user_tasks',
  'CREATE UNIQUE INDEX user_tasks_once ON user_tasks(user_id, task_id)',
  'CREATE INDEX user_tasks_task ON user_tasks(task_id)',
  "CREATE INDEX user_tasks_due ON user_tasks(expires_at) WHERE status = 'in_progress'",
];

// PostgreSQL replaces the named CHECKs in place; the tables and triggers stay.
const postgres = [
  `ALTER TABLE ledger DROP CONSTRAINT ledger_kind,
    ADD CONSTRAINT ledger_kind CHECK (kind IN ('reward','withdrawal_hold','withdrawal_refund','adjustment','forfeit')),
    DROP CONSTRAINT ledger_kind_amount,
    ADD CONSTRAINT ledger_kind_amount CHECK ((kind = 'reward' AND amount > 0) OR (kind = 'withdrawal_hold' AND amount < 0)
      OR (kind = 'withdrawal_refund' AND amount > 0) OR kind = 'adjustment'
      OR (kind = 'forfeit' AND amount < 0))`,
  `ALTER TABLE user_tasks DROP CONSTRAINT user_tasks_end_reason,
    ADD CONSTRAINT user_tasks_end_reason CHECK (end_reason IN ('time','task_closed','user_deleted'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const statement of postgres) await sql.raw(statement).execute(db);
    return;
  }
  await sql.raw('PRAGMA foreign_keys = OFF').execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      for (const statement of rebuild) await sql.raw(statement).execute(trx);
      const broken = await sql.raw('PRAGMA foreign_key_check').execute(trx);
      if (broken.rows.length > 0) throw new Error(`ledger rebuild broke ${broken.rows.length} foreign keys`);
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
