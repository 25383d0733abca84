import type { Generated } from 'kysely';
import type { Category, Difficulty, FeedbackCode, ProofType, TaskStatus } from '../contract/constants';

/** Row types of the tables created by the migrations. Money columns are integer kuruş. */
export interface UsersTable {
  _id: string;
  name: string;
  email: string;
  password_hash: string;
  role: 'user' | 'admin';
  status: 'active' | 'suspended' | 'banned';
  ban_reason: string | null;
  balance: Generated<number>;
  total_earned: Generated<number>;
  phone: string | null;
  address: string | null;
  bio: string | null;
  profile_image: string | null;
  one_signal_id: string | null;
  device_id: string | null;
  created_at: string;
  updated_at: string;
  last_active: string | null;
  deleted_at: string | null;
  /** the folded name (db/search.ts), written with every change of the name */
  name_search: Generated<string>;
  /** the client address it registered from (linked accounts); cleared on deletion */
  register_ip: string | null;
  /** the language of mails to the account: 'tr' or 'en' */
  language: Generated<string>;
  /** when the address was proved the owner's by a mailed link; null: not verified */
  email_verified_at: string | null;
  /** 1: mails about reviews and payouts; 0: the inbox only */
  email_notifications: Generated<number>;
}

export interface TasksTable {
  _id: string;
  title: string;
  description: string;
  category: Category;
  reward: number;
  deadline: string | null;
  difficulty: Difficulty;
  status: TaskStatus;
  max_completions: number;
  required_proof: ProofType;
  task_link: string | null;
  is_featured: Generated<number>;
  steps: Generated<string>;
  requirements: Generated<string>;
  estimated_time: number | null;
  rating: Generated<number>;
  total_completed: Generated<number>;
  reserved: Generated<number>;
  /** minutes a started record has to send its proof: 5 to 10,080, 60 by default */
  time_limit_minutes: Generated<number>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** folded title, and folded description with the category's words (features/tasks/task-search.ts) */
  search_title: Generated<string>;
  search_body: Generated<string>;
  /** seconds a proof must take after its start before it is "too fast" (null: derived) */
  min_seconds: number | null;
}

export interface TaskCommentsTable {
  _id: string;
  task_id: string;
  text: string;
  position: number;
  used_by: string | null;
  used_at: string | null;
}

export interface UserTasksTable {
  _id: string;
  user_id: string;
  task_id: string;
  /** expired: not submitted by expires_at; its slot and comment were given back */
  status: 'in_progress' | 'completed' | 'expired';
  automatic_comment: string | null;
  started_at: string;
  completed_at: string | null;
  /** when a record in progress runs out of time (started_at + the task's time limit) */
  expires_at: string | null;
  /** when it ended (the sweep, or its task closing) */
  expired_at: string | null;
  /** why an expired record ended: its time ran out, or its task was deleted or closed */
  end_reason: 'time' | 'task_closed' | 'user_deleted' | null;
}

/** A worker's appeal of a rejection, one per submission. */
export interface AppealsTable {
  submission_id: string;
  user_id: string;
  message: string;
  status: 'pending' | 'upheld' | 'overturned';
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
  response: string | null;
}

export interface SubmissionsTable {
  _id: string;
  user_task_id: string;
  user_id: string;
  task_id: string;
  status: 'pending' | 'approved' | 'rejected';
  description: string | null;
  feedback: string | null;
  /** FEEDBACK_CODES: the system's fixed text, shown in the reader's language */
  feedback_code: FeedbackCode | null;
  rejection_reason: string | null;
  reward: number;
  proof_file: string | null;
  /** the task's requiredProof when it was sent */
  proof_type: Generated<ProofType>;
  /** a link proof */
  proof_url: string | null;
  /** a code or a text proof */
  proof_text: string | null;
  /** 1 when the system approved it after the auto-approval days */
  auto_approved: Generated<number>;
  /** the proof's thumbnail (WebP, 320 px on its long side), private like the proof */
  proof_thumb: string | null;
  /** the proof's 64-bit difference hash, 16 hex digits (storage/image.ts proofFingerprint) */
  proof_hash: string | null;
  /** the proof's 256-bit fingerprint, 64 hex digits */
  proof_print: string | null;
  /** the duplicate lookup's keys: 21 bits of each of the print's six parts, each indexed (features/fraud/fingerprint-bands.ts) */
  proof_b0: number | null;
  proof_b1: number | null;
  proof_b2: number | null;
  proof_b3: number | null;
  proof_b4: number | null;
  proof_b5: number | null;
  created_at: string;
  updated_at: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
}

export interface WithdrawalsTable {
  _id: string;
  user_id: string;
  amount: number;
  payment_method: 'papara' | 'iban';
  full_name: string;
  /** the folded account holder's name */
  full_name_search: Generated<string>;
  account_number: string;
  status: 'pending' | 'approved' | 'rejected';
  rejection_reason: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
}

export interface LedgerTable {
  id: Generated<number>;
  user_id: string;
  amount: number;
  kind: 'reward' | 'withdrawal_hold' | 'withdrawal_refund' | 'adjustment' | 'forfeit';
  ref: string | null;
  actor_id: string | null;
  created_at: string;
}

export interface IdempotencyTable {
  user_id: string;
  key: string;
  route: string;
  status: number;
  body: string;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

/** The admin dashboard's counters, kept by triggers (migration 2026-11-25-1700-stat-counters). */
export interface StatCountersTable {
  metric: string;
  /** 'YYYY-MM-DDTHH' (UTC hour of the event) or '*' (all time). */
  bucket: string;
  value: number;
}

export type InboxType =
  | 'isAccepted'
  | 'isRejected'
  | 'acceptedWithdraw'
  | 'rejectedWithdraw'
  | 'appealOverturned'
  | 'appealUpheld'
  | 'taskClosed'
  | 'customMessage';

/** The in-app inbox (migration 2026-11-26-1300-inbox): user_id null means everyone. */
export interface InboxTable {
  _id: string;
  user_id: string | null;
  type: InboxType;
  title: string | null;
  message: string | null;
  ref: string | null;
  created_at: string;
}

export interface InboxReadsTable {
  inbox_id: string;
  user_id: string;
  read_at: string;
}

/** The audit log (migration 2026-11-26-1400-audit-log): append-only, one row per admin action. */
export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  actor_id: string | null;
  /** the actor's name and email when the row was written (migration 2026-11-29-0915-audit-actor) */
  actor_name: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  /** JSON: { field: [before, after] } and, for some actions, plain facts ({ field: value }) */
  changes: string;
}

/** A fraud signal (migration 2026-11-27-0900-fraud-signals), one per item and kind. */
export interface FlagsTable {
  _id: string;
  item_type: 'submission' | 'withdrawal' | 'user';
  item_id: string;
  /** whose item it is (the account itself for an account's flag) */
  user_id: string;
  kind: 'duplicate_proof' | 'too_fast' | 'shared_payout' | 'shared_device' | 'address_burst';
  message_en: string;
  message_tr: string;
  /** JSON array of ids */
  related: Generated<string>;
  created_at: string;
  dismissed_at: string | null;
  dismissed_by: string | null;
  dismiss_note: string | null;
  /** a duplicate proof's similarity to its nearest match, 0-100 (null for other kinds and older flags) */
  similarity: Generated<number | null>;
}

/** A throttle's count in its window (migration 2026-11-28-0900-cluster-state). */
export interface RateLimitsTable {
  /** the limiter's name, ':', the SHA-256 of its key (an address, an email, a pair) */
  key: string;
  points: number;
  /** the window's end, ms since the epoch */
  expires_at: number;
}

/** The first-run setup link's token, open until the first admin is made with one. */
export interface SetupTokensTable {
  /** SHA-256 of the token, hex */
  digest: string;
  created_at: string;
}

/** Numbers bumped with a write, compared by readers keeping a copy in memory. */
export interface ChangeCountersTable {
  name: 'task_list';
  value: number;
}

/** One sign-in: the token names it (`sid`); deleting the row ends the token on every node. */
export interface SessionsTable {
  id: string;
  user_id: string;
  /** the keyed stamp of the password the session began under (features/users/token.ts) */
  password_stamp: string;
  /** 1 when signed in with remember-me (30 days rather than 1) */
  remember: number;
  created_at: string;
  /** moved forward at most once a minute */
  last_seen_at: string;
  expires_at: string;
  user_agent: string | null;
  ip: string | null;
}

/** An account's TOTP second factor; enabled_at is null while it is still being set up. */
export interface TwoFactorTable {
  user_id: string;
  /** the base32 secret, encrypted with the server's secret (features/users/secret-box.ts) */
  secret: string;
  enabled_at: string | null;
  /** the last 30-second step a code was accepted for: no code is accepted twice */
  last_step: number | null;
  created_at: string;
}

/** The single-use recovery codes of an account with two-factor, as keyed hashes. */
export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: string | null;
}

/** The account a worker last asked to be paid to, one per worker (features/withdrawals). */
export interface PayoutAccountsTable {
  user_id: string;
  payment_method: 'papara' | 'iban';
  full_name: string;
  /** normalised as in withdrawals: IBAN upper case without spaces, Papara digits only */
  account_number: string;
  updated_at: string;
}

export interface DB {
  users: UsersTable;
  tasks: TasksTable;
  task_comments: TaskCommentsTable;
  user_tasks: UserTasksTable;
  submissions: SubmissionsTable;
  withdrawals: WithdrawalsTable;
  ledger: LedgerTable;
  idempotency: IdempotencyTable;
  settings: SettingsTable;
  stat_counters: StatCountersTable;
  appeals: AppealsTable;
  inbox: InboxTable;
  inbox_reads: InboxReadsTable;
  audit_log: AuditLogTable;
  flags: FlagsTable;
  rate_limits: RateLimitsTable;
  setup_tokens: SetupTokensTable;
  change_counters: ChangeCountersTable;
  mail_outbox: MailOutboxTable;
  account_tokens: AccountTokensTable;
  sessions: SessionsTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  payout_accounts: PayoutAccountsTable;
  user_notes: UserNotesTable;
}

/** Admins' internal notes on an account (migration 2026-12-01-1300-user-notes). */
export interface UserNotesTable {
  _id: string;
  user_id: string;
  /** null: the author's account row is gone */
  author_id: string | null;
  /** the author's name when the note was written */
  author_name: string | null;
  body: string;
  created_at: string;
}

/** A mail to send (features/mail/outbox.repository.ts); bodies emptied once sent. */
export interface MailOutboxTable {
  _id: string;
  kind: string;
  user_id: string | null;
  to_address: string;
  to_name: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  /** pending (waiting or being sent under a lease), sent, or failed (given up) */
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: string;
  /** a node is sending it until then; past it, the row is anyone's again */
  lease_until: string | null;
  last_error: string | null;
  message_id: string | null;
  created_at: string;
  sent_at: string | null;
}

/** A one-time link mailed to an account, as the SHA-256 of its token. */
export interface AccountTokensTable {
  digest: string;
  user_id: string;
  purpose: 'password_reset' | 'email_verify';
  /** the address it was mailed to: a verification proves only that one */
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
