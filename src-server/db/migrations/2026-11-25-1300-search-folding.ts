import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It folds with its own
// copy of the app's folding as it was on this day (at the end of the file), so a later change of
// the folding does not change what this migration did; such a change needs a migration that
// folds the stored copies again.
//
// Search that understands Turkish. The application folds text (db/search.ts) and
// stores the folded copy beside the original on every write, so matching is a plain
// comparison of folded text on any engine: tasks.search_title and tasks.search_body (the
// description and the category's words), users.name_search, withdrawals.full_name_search.
// Tasks are also indexed by an FTS5 trigram table over the two folded columns, kept in step by
// triggers (it reads tasks' rowids: external content); on PostgreSQL the same role falls to a
// pg_trgm index on those columns.
//
// The task list now reads the ordered ids of a filter once (then cached for up to 2 s,
// features/tasks/task-list-cache.ts), so each sort gets an index holding its whole order and
// every column the filters test: the list of ids is read from the index alone. They replace
// the sort indexes of task-list-indexes and the count index of task-count-index.
const columns = [
  "ALTER TABLE tasks ADD COLUMN search_title TEXT NOT NULL DEFAULT ''",
  "ALTER TABLE tasks ADD COLUMN search_body TEXT NOT NULL DEFAULT ''",
  "ALTER TABLE users ADD COLUMN name_search TEXT NOT NULL DEFAULT ''",
  "ALTER TABLE withdrawals ADD COLUMN full_name_search TEXT NOT NULL DEFAULT ''",
];

// deleted_at is always NULL in these partial indexes, but SQLite reads the row for the
// query's `deleted_at IS NULL` unless the index holds the column too
const filterColumns = 'deadline, category, difficulty, reward, deleted_at';
const sortOrders: Record<string, string> = {
  newest: 'created_at DESC, _id',
  oldest: 'created_at, _id',
  highest_reward: 'reward DESC, created_at DESC, _id',
  lowest_reward: 'reward, created_at DESC, _id',
  quickest: '(estimated_time IS NULL), estimated_time, created_at DESC, _id',
  most_popular: 'total_completed DESC, created_at DESC, _id',
};

const indexes = [
  'DROP INDEX tasks_sort_oldest',
  'DROP INDEX tasks_sort_reward_desc',
  'DROP INDEX tasks_sort_reward_asc',
  'DROP INDEX tasks_sort_quickest',
  'DROP INDEX tasks_sort_popular',
  'DROP INDEX tasks_filter',
  ...Object.entries(sortOrders).map(
    ([sort, order]) =>
      `CREATE INDEX tasks_order_${sort} ON tasks(status, is_featured DESC, ${order}, ${filterColumns}) WHERE deleted_at IS NULL`,
  ),
  // the list's comment counts (total and used) read this index alone
  'CREATE INDEX task_comments_usage ON task_comments(task_id, used_by)',
];

const fullText = [
  `CREATE VIRTUAL TABLE tasks_fts USING fts5(search_title, search_body, content='tasks',
     content_rowid='rowid', tokenize='trigram case_sensitive 1')`,
  `CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
     INSERT INTO tasks_fts(rowid, search_title, search_body) VALUES (new.rowid, new.search_title, new.search_body);
   END`,
  `CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
     INSERT INTO tasks_fts(tasks_fts, rowid, search_title, search_body)
       VALUES ('delete', old.rowid, old.search_title, old.search_body);
   END`,
  `CREATE TRIGGER tasks_fts_update AFTER UPDATE OF search_title, search_body ON tasks BEGIN
     INSERT INTO tasks_fts(tasks_fts, rowid, search_title, search_body)
       VALUES ('delete', old.rowid, old.search_title, old.search_body);
     INSERT INTO tasks_fts(rowid, search_title, search_body) VALUES (new.rowid, new.search_title, new.search_body);
   END`,
];

// PostgreSQL: a trigram GIN index over the same folded columns serves the LIKE search
// (pg_trgm is a trusted extension: the database's owner may create it).
const trigramIndex = [
  'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  'CREATE INDEX tasks_search_trgm ON tasks USING gin (search_title gin_trgm_ops, search_body gin_trgm_ops)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of columns) await sql.raw(statement).execute(db);

  // existing rows, folded once, in one transaction (Kysely's migrator gives SQLite none: one
  // commit per row took a minute at 300,000 rows)
  const backfill = async (trx: Kysely<unknown>) => {
    const tasks = await sql<{ _id: string; title: string; description: string; category: string }>`
      SELECT _id, title, description, category FROM tasks`.execute(trx);
    for (const t of tasks.rows) {
      await sql`UPDATE tasks SET search_title = ${taskSearchTitle(t.title)},
        search_body = ${taskSearchBody(t.description, t.category)} WHERE _id = ${t._id}`.execute(trx);
    }
    const users = await sql<{ _id: string; name: string }>`SELECT _id, name FROM users`.execute(trx);
    for (const u of users.rows) {
      await sql`UPDATE users SET name_search = ${foldSearch(u.name)} WHERE _id = ${u._id}`.execute(trx);
    }
    const holders = await sql<{
      _id: string;
      full_name: string;
    }>`SELECT _id, full_name FROM withdrawals`.execute(trx);
    for (const w of holders.rows) {
      await sql`UPDATE withdrawals SET full_name_search = ${foldSearch(w.full_name)} WHERE _id = ${w._id}`.execute(
        trx,
      );
    }
  };
  if (db.isTransaction) await backfill(db);
  else await db.transaction().execute(backfill);

  for (const statement of indexes) await sql.raw(statement).execute(db);
  if (isPostgres(db)) {
    for (const statement of trigramIndex) await sql.raw(statement).execute(db);
    return;
  }
  for (const statement of fullText) await sql.raw(statement).execute(db);
  await sql.raw("INSERT INTO tasks_fts(tasks_fts) VALUES ('rebuild')").execute(db);
}

// The app's folding as it was when this migration shipped (db/search.ts foldSearch,
// features/tasks/task-search.ts), written out here, not imported: see the top of the file.

/**
 * Lower case without the locale's rules (Turkish İ/I/ı and i all become `i`), combining marks
 * removed, compatibility forms unified and runs of white space and control characters made one
 * space.
 */
function foldSearch(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ı/g, 'i')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

/** The words a search finds a category by, besides its value with spaces: English and Turkish labels. */
const CATEGORY_SEARCH_WORDS: Record<string, readonly string[]> = {
  social_media: ['Social Media', 'Sosyal Medya'],
  review: ['Review', 'Değerlendirme'],
  video: ['Video'],
  membership: ['Membership', 'Üyelik'],
  survey: ['Survey', 'Anket'],
  test: ['Test'],
  game: ['Game', 'Oyun'],
  inspection: ['Inspection', 'İnceleme'],
  giveaway: ['Giveaway', 'Çekiliş'],
  other: ['Other', 'Diğer'],
};

/** tasks.search_title: the folded title. */
function taskSearchTitle(title: string): string {
  return foldSearch(title);
}

/** tasks.search_body: the folded description, then the category's words, one per line. */
function taskSearchBody(description: string, category: string): string {
  const words = CATEGORY_SEARCH_WORDS[category] ?? [];
  const parts = new Set([category.replace(/_/g, ' '), ...words].map(foldSearch));
  return [foldSearch(description), ...parts].join('\n');
}

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
