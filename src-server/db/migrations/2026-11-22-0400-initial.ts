import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
const statements = [
  `CREATE TABLE users (
    _id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user','admin')),
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','suspended','banned')),
    ban_reason TEXT,
    balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    total_earned INTEGER NOT NULL DEFAULT 0 CHECK (total_earned >= 0),
    phone TEXT, address TEXT, bio TEXT, profile_image TEXT,
    one_signal_id TEXT, device_id TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, last_active TEXT, deleted_at TEXT
  ) STRICT`,
  'CREATE UNIQUE INDEX users_email ON users(email COLLATE NOCASE)',
  'CREATE INDEX users_created ON users(created_at)',
  `CREATE TABLE tasks (
    _id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    category TEXT NOT NULL,
    reward INTEGER NOT NULL CHECK (reward > 0),
    deadline TEXT,
    difficulty TEXT NOT NULL CHECK (difficulty IN ('easy','medium','hard')),
    status TEXT NOT NULL CHECK (status IN ('active','inactive','completed','cancelled')),
    max_completions INTEGER NOT NULL CHECK (max_completions >= 1),
    required_proof TEXT NOT NULL,
    task_link TEXT,
    is_featured INTEGER NOT NULL DEFAULT 0 CHECK (is_featured IN (0,1)),
    steps TEXT NOT NULL DEFAULT '[]',
    requirements TEXT NOT NULL DEFAULT '[]',
    estimated_time INTEGER,
    rating REAL NOT NULL DEFAULT 4.5,
    total_completed INTEGER NOT NULL DEFAULT 0 CHECK (total_completed >= 0),
    reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0 AND reserved <= max_completions),
    created_by TEXT REFERENCES users(_id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT
  ) STRICT`,
  'CREATE INDEX tasks_list ON tasks(status, is_featured, created_at)',
  `CREATE TABLE task_comments (
    _id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(_id),
    text TEXT NOT NULL,
    position INTEGER NOT NULL,
    used_by TEXT REFERENCES users(_id),
    used_at TEXT
  ) STRICT`,
  'CREATE UNIQUE INDEX task_comments_text ON task_comments(task_id, text)',
  `CREATE TABLE user_tasks (
    _id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(_id),
    task_id TEXT NOT NULL REFERENCES tasks(_id),
    status TEXT NOT NULL CHECK (status IN ('in_progress','completed')),
    automatic_comment TEXT,
    started_at TEXT NOT NULL,
    completed_at TEXT
  ) STRICT`,
  'CREATE UNIQUE INDEX user_tasks_once ON user_tasks(user_id, task_id)',
  'CREATE INDEX user_tasks_task ON user_tasks(task_id)',
  `CREATE TABLE submissions (
    _id TEXT PRIMARY KEY,
    user_task_id TEXT NOT NULL REFERENCES user_tasks(_id),
    user_id TEXT NOT NULL REFERENCES users(_id),
    task_id TEXT NOT NULL REFERENCES tasks(_id),
    status TEXT NOT NULL CHECK (status IN ('pending','approved','rejected')),
    description TEXT,
    feedback TEXT,
    rejection_reason TEXT,
    reward INTEGER NOT NULL CHECK (reward > 0),
    proof_file TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    reviewed_by TEXT, reviewed_at TEXT
  ) STRICT`,
  "CREATE UNIQUE INDEX submissions_one_pending ON submissions(user_task_id) WHERE status = 'pending'",
  "CREATE UNIQUE INDEX submissions_paid_once ON submissions(user_id, task_id) WHERE status = 'approved'",
  'CREATE INDEX submissions_status ON submissions(status, created_at)',
  'CREATE INDEX submissions_user ON submissions(user_id, created_at)',
  `CREATE TABLE withdrawals (
    _id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(_id),
    amount INTEGER NOT NULL CHECK (amount > 0),
    payment_method TEXT NOT NULL CHECK (payment_method IN ('papara','iban')),
    full_name TEXT NOT NULL,
    account_number TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending','approved','rejected')),
    rejection_reason TEXT,
    description TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    reviewed_by TEXT, reviewed_at TEXT
  ) STRICT`,
  'CREATE INDEX withdrawals_status ON withdrawals(status, created_at)',
  'CREATE INDEX withdrawals_user ON withdrawals(user_id, created_at)',
  `CREATE TABLE ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL REFERENCES users(_id),
    amount INTEGER NOT NULL CHECK (amount <> 0),
    kind TEXT NOT NULL CHECK (kind IN ('reward','withdrawal_hold','withdrawal_refund','adjustment')),
    ref TEXT,
    actor_id TEXT,
    created_at TEXT NOT NULL,
    CHECK ((kind = 'reward' AND amount > 0) OR (kind = 'withdrawal_hold' AND amount < 0)
      OR (kind = 'withdrawal_refund' AND amount > 0) OR kind = 'adjustment')
  ) STRICT`,
  'CREATE INDEX ledger_user ON ledger(user_id)',
  // a reward is paid once per submission, a hold taken once and a refund given once per withdrawal
  "CREATE UNIQUE INDEX ledger_once ON ledger(kind, ref) WHERE kind <> 'adjustment'",
  `CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
     BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END`,
  `CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
     BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END`,
  `CREATE TABLE idempotency (
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    route TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, key)
  ) STRICT`,
  `CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
];

// PostgreSQL: the same tables with money as BIGINT, CHECKs named so later migrations can
// replace them, an identity column for AUTOINCREMENT, no NOCASE (every write lower-cases the
// email), double precision for REAL, and the append-only rule as a trigger function.
const postgres = [
  `CREATE TABLE users (
    _id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL CONSTRAINT users_email_lower CHECK (email = lower(email)),
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user','admin')),
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','suspended','banned')),
    ban_reason TEXT,
    balance BIGINT NOT NULL DEFAULT 0 CHECK (balance >= 0),
    total_earned BIGINT NOT NULL DEFAULT 0 CHECK (total_earned >= 0),
    phone TEXT, address TEXT, bio TEXT, profile_image TEXT,
    one_signal_id TEXT, device_id TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, last_active TEXT, deleted_at TEXT
  )`,
  'CREATE UNIQUE INDEX users_email ON users(email)',
  'CREATE INDEX users_created ON users(created_at)',
  `CREATE TABLE tasks (
    _id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    category TEXT NOT NULL,
    reward BIGINT NOT NULL CHECK (reward > 0),
    deadline TEXT,
    difficulty TEXT NOT NULL CHECK (difficulty IN ('easy','medium','hard')),
    status TEXT NOT NULL CHECK (status IN ('active','inactive','completed','cancelled')),
    max_completions INTEGER NOT NULL CHECK (max_completions >= 1),
    required_proof TEXT NOT NULL,
    task_link TEXT,
    is_featured INTEGER NOT NULL DEFAULT 0 CHECK (is_featured IN (0,1)),
    steps TEXT NOT NULL DEFAULT '[]',
    requirements TEXT NOT NULL DEFAULT '[]',
    estimated_time INTEGER,
    rating DOUBLE PRECISION NOT NULL DEFAULT 4.5,
    total_completed INTEGER NOT NULL DEFAULT 0 CHECK (total_completed >= 0),
    reserved INTEGER NOT NULL DEFAULT 0,
    created_by TEXT REFERENCES users(_id),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT,
    CONSTRAINT tasks_reserved CHECK (reserved >= 0 AND reserved <= max_completions)
  )`,
  'CREATE INDEX tasks_list ON tasks(status, is_featured, created_at)',
  `CREATE TABLE task_comments (
    _id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(_id),
    text TEXT NOT NULL,
    position INTEGER NOT NULL,
    used_by TEXT REFERENCES users(_id),
    used_at TEXT
  )`,
  'CREATE UNIQUE INDEX task_comments_text ON task_comments(task_id, text)',
  `CREATE TABLE user_tasks (
    _id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(_id),
    task_id TEXT NOT NULL REFERENCES tasks(_id),
    status TEXT NOT NULL CONSTRAINT user_tasks_status CHECK (status IN ('in_progress','completed')),
    automatic_comment TEXT,
    started_at TEXT NOT NULL,
    completed_at TEXT
  )`,
  'CREATE UNIQUE INDEX user_tasks_once ON user_tasks(user_id, task_id)',
  'CREATE INDEX user_tasks_task ON user_tasks(task_id)',
  `CREATE TABLE submissions (
    _id TEXT PRIMARY KEY,
    user_task_id TEXT NOT NULL REFERENCES user_tasks(_id),
    user_id TEXT NOT NULL REFERENCES users(_id),
    task_id TEXT NOT NULL REFERENCES tasks(_id),
    status TEXT NOT NULL CHECK (status IN ('pending','approved','rejected')),
    description TEXT,
    feedback TEXT,
    rejection_reason TEXT,
    reward BIGINT NOT NULL CHECK (reward > 0),
    proof_file TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    reviewed_by TEXT, reviewed_at TEXT
  )`,
  "CREATE UNIQUE INDEX submissions_one_pending ON submissions(user_task_id) WHERE status = 'pending'",
  "CREATE UNIQUE INDEX submissions_paid_once ON submissions(user_id, task_id) WHERE status = 'approved'",
  'CREATE INDEX submissions_status ON submissions(status, created_at)',
  'CREATE INDEX submissions_user ON submissions(user_id, created_at)',
  `CREATE TABLE withdrawals (
    _id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(_id),
    amount BIGINT NOT NULL CHECK (amount > 0),
    payment_method TEXT NOT NULL CHECK (payment_method IN ('papara','iban')),
    full_name TEXT NOT NULL,
    account_number TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending','approved','rejected')),
    rejection_reason TEXT,
    description TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    reviewed_by TEXT, reviewed_at TEXT
  )`,
  'CREATE INDEX withdrawals_status ON withdrawals(status, created_at)',
  'CREATE INDEX withdrawals_user ON withdrawals(user_id, created_at)',
  `CREATE TABLE ledger (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(_id),
    amount BIGINT NOT NULL CHECK (amount <> 0),
    kind TEXT NOT NULL CONSTRAINT ledger_kind
      CHECK (kind IN ('reward','withdrawal_hold','withdrawal_refund','adjustment')),
    ref TEXT,
    actor_id TEXT,
    created_at TEXT NOT NULL,
    CONSTRAINT ledger_kind_amount CHECK ((kind = 'reward' AND amount > 0) OR (kind = 'withdrawal_hold' AND amount < 0)
      OR (kind = 'withdrawal_refund' AND amount > 0) OR kind = 'adjustment')
  )`,
  'CREATE INDEX ledger_user ON ledger(user_id)',
  "CREATE UNIQUE INDEX ledger_once ON ledger(kind, ref) WHERE kind <> 'adjustment'",
  ...appendOnlyTriggers('ledger', 'ledger is append-only'),
  `CREATE TABLE idempotency (
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    route TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, key)
  )`,
  `CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, { sqlite: statements, postgres });
}

// Written here as it was when this migration shipped, not imported from the app: a migration
// imports only Kysely, so nothing the app changes later changes what it did.
/**
 * The append-only rule of the ledger and the audit log on PostgreSQL: one function raising the
 * trigger's message, called before any UPDATE or DELETE of a row and before a TRUNCATE.
 */
function appendOnlyTriggers(table: string, message: string): string[] {
  return [
    `CREATE OR REPLACE FUNCTION forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END $$`,
    `CREATE TRIGGER ${table}_no_change BEFORE UPDATE OR DELETE ON ${table}
       FOR EACH ROW EXECUTE FUNCTION forbid_change('${message}')`,
    `CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION forbid_change('${message}')`,
  ];
}

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
