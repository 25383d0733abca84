import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports nothing of
// the app's.
//
// Mail: what the app sends by SMTP, and the accounts' side of it.
// - users.language: the language mails to the account are written in ('tr' or 'en'), taken from
//   the screen it registered on; accounts made before know none and get Turkish, the site's own.
// - users.email_verified_at: when the owner proved the address theirs (a link mailed to it);
//   NULL: not verified. Accounts made before never proved it, so they start unverified.
// - users.email_notifications: 1 (the default) or 0: mails about reviews and payouts.
// - mail_outbox: every mail to send, written in the transaction of the event that causes it and
//   sent later by a background job, so a slow or absent SMTP server never holds a request and a
//   restart loses nothing. A row being sent holds a lease (lease_until); a node that dies while
//   sending leaves a lease that runs out and the row is sent again by whoever comes next. Once
//   sent, its bodies are emptied: a reset link must not outlive its use in a backup.
// - account_tokens: one-time links mailed to an account (password reset, address verification),
//   kept only as the SHA-256 of the token, with when they stop working and when they were used.
// STRICT tables on SQLite (whose STRICT knows INTEGER, not BIGINT); PostgreSQL's text columns
// order byte by byte.
const statements = (c: string, int: string, strict: string) => [
  `ALTER TABLE users ADD COLUMN language TEXT${c} NOT NULL DEFAULT 'tr'`,
  `ALTER TABLE users ADD COLUMN email_verified_at TEXT${c}`,
  `ALTER TABLE users ADD COLUMN email_notifications ${int} NOT NULL DEFAULT 1`,
  `CREATE TABLE mail_outbox (
    _id TEXT${c} NOT NULL PRIMARY KEY,
    kind TEXT${c} NOT NULL,
    user_id TEXT${c},
    to_address TEXT${c} NOT NULL,
    to_name TEXT${c},
    subject TEXT${c} NOT NULL,
    text_body TEXT${c} NOT NULL,
    html_body TEXT${c} NOT NULL,
    status TEXT${c} NOT NULL DEFAULT 'pending',
    attempts ${int} NOT NULL DEFAULT 0,
    next_attempt_at TEXT${c} NOT NULL,
    lease_until TEXT${c},
    last_error TEXT${c},
    message_id TEXT${c},
    created_at TEXT${c} NOT NULL,
    sent_at TEXT${c}
  )${strict}`,
  'CREATE INDEX mail_outbox_due ON mail_outbox(status, next_attempt_at)',
  'CREATE INDEX mail_outbox_user ON mail_outbox(user_id)',
  `CREATE TABLE account_tokens (
    digest TEXT${c} NOT NULL PRIMARY KEY,
    user_id TEXT${c} NOT NULL,
    purpose TEXT${c} NOT NULL,
    email TEXT${c} NOT NULL,
    created_at TEXT${c} NOT NULL,
    expires_at TEXT${c} NOT NULL,
    used_at TEXT${c}
  )${strict}`,
  'CREATE INDEX account_tokens_user ON account_tokens(user_id, purpose)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const list = postgres ? statements(' COLLATE "C"', 'BIGINT', '') : statements('', 'INTEGER', ' STRICT');
  for (const statement of list) await sql.raw(statement).execute(db);
}
