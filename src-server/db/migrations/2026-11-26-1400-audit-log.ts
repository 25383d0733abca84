import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// Issue 16: the audit log. Every admin action is one row, written in the transaction of the
// action: when, who (null: the system or the command line), a stable action code, the target,
// and the fields changed with before and after values (JSON; never a password or its hash).
// Append-only like the ledger. The first row marks when the log began: doctor compares the
// ledger with the log only from then on (money moved before has no audit rows).
const statements = [
  `CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    actor_id TEXT,
    action TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id TEXT,
    changes TEXT NOT NULL
  ) STRICT`,
  'CREATE INDEX audit_at ON audit_log(at)',
  'CREATE INDEX audit_target ON audit_log(target_type, target_id, at)',
  'CREATE INDEX audit_actor ON audit_log(actor_id, at)',
  'CREATE INDEX audit_action ON audit_log(action, at)',
  `CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit_log
     BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END`,
  `CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit_log
     BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END`,
  `INSERT INTO audit_log (at, actor_id, action, target_type, target_id, changes)
     VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), NULL, 'audit.start', 'system', NULL, '{}')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
