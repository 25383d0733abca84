import { type Kysely, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// The admin lists page newest first by (created_at, _id) and count their rows on every page.
// At 100,000 users, 1,000,000 submissions and 200,000 withdrawals (npm run bench) both were
// seconds: the count joined every submission to its task and user, and a deep OFFSET looked
// up every skipped row. These indexes hold the whole sort key, so a page is found by walking
// one index (src-server/db/paging.ts) and the counts read an index instead of the table.
const statements = [
  // submissions: all of them, by status, and the approved rewards by review time (dashboard)
  'CREATE INDEX submissions_newest ON submissions(created_at, _id)',
  'DROP INDEX submissions_created',
  'CREATE INDEX submissions_status_newest ON submissions(status, created_at, _id)',
  'DROP INDEX submissions_status',
  'CREATE INDEX submissions_reviewed ON submissions(status, reviewed_at, reward)',
  // withdrawals: all of them and by status
  'CREATE INDEX withdrawals_newest ON withdrawals(created_at, _id)',
  'CREATE INDEX withdrawals_status_newest ON withdrawals(status, created_at, _id)',
  'DROP INDEX withdrawals_status',
  // live accounts (deleted ones are anonymised and left out of every list and count)
  'CREATE INDEX users_live_newest ON users(created_at, _id) WHERE deleted_at IS NULL',
  'CREATE INDEX users_live_status ON users(status, created_at, _id) WHERE deleted_at IS NULL',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
