import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { isPostgres } from './dialect';

/**
 * Text folded for search, the same on every engine because the application does it: lower
 * case without the locale's rules (so Turkish İ/I/ı and i all become `i`), accents and other
 * combining marks removed (ç ğ ö ş ü â î û become c g o s u a i u), compatibility forms
 * unified (ﬁ, full-width letters) and runs of white space and control characters made one space. "ÇEKİLİŞ",
 * "Çekiliş" and "cekilis" all fold to "cekilis"; "IŞIK" and "ışık" to "isik".
 * The folded text is stored beside the original (tasks.search_title, users.name_search...)
 * and a search folds its query the same way, so the database only compares plain text.
 */
export function foldSearch(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ı/g, 'i')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

/** A LIKE pattern matching text that contains `folded`, its % _ and \ taken literally. */
export function containsPattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** `column LIKE '%folded%'` with the escape both SQLite and PostgreSQL read the same way. */
export function likeFolded(column: RawBuilder<unknown>, folded: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} LIKE ${containsPattern(folded)} ESCAPE '\\'`;
}

/** The folded copy of a user's name, to store with any write that sets the name. */
export function withNameSearch<T extends { name?: unknown }>(row: T): T & { name_search?: string } {
  return typeof row.name === 'string' ? { ...row, name_search: foldSearch(row.name) } : row;
}

/**
 * Shortest folded query the tasks' full-text index answers: it indexes trigrams, so one or two
 * characters are matched by a scan of the folded columns instead (same result, slower).
 */
export const TRIGRAM_MIN = 3;

/**
 * True for the tasks whose folded title or body contains `folded`. On SQLite the FTS5 trigram
 * index `tasks_fts` (migration search-folding) finds them: a phrase query on trigrams is exactly
 * "contains this substring" for three characters and more. On PostgreSQL the condition is the
 * LIKE of the fallback below, which a pg_trgm GIN index on the two columns serves.
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema with tasks
export function tasksContaining(db: Kysely<any>, folded: string): RawBuilder<SqlBool> {
  if ([...folded].length < TRIGRAM_MIN || isPostgres(db)) {
    const title = likeFolded(sql.ref('tasks.search_title'), folded);
    return sql<SqlBool>`(${title} OR ${likeFolded(sql.ref('tasks.search_body'), folded)})`;
  }
  const phrase = `"${folded.replace(/"/g, '""')}"`;
  return sql<SqlBool>`tasks.rowid IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ${phrase})`;
}

/**
 * tasksContaining tested on each row's folded text instead of through the full-text index, for
 * a query already narrowed to a small part of the tasks by an index that holds the two folded
 * columns (tasks_search_filter: one category's tasks). Reading every full-text match to keep the
 * few of one category cost more than the category's entries themselves. instr finds what
 * `LIKE '%folded%'` finds (both sides are folded, so LIKE's case rule has nothing to fold) without
 * matching a pattern. PostgreSQL: the LIKE of tasksContaining.
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema with tasks
export function tasksContainingScan(db: Kysely<any>, folded: string): RawBuilder<SqlBool> {
  if (isPostgres(db)) return tasksContaining(db, folded);
  return sql<SqlBool>`(instr(tasks.search_title, ${folded}) > 0 OR instr(tasks.search_body, ${folded}) > 0)`;
}

/**
 * The FROM of a query of the tasks whose folded title or body contains `folded`, through the
 * full-text index: its matches first, then each task by rowid. SQLite keeps a CROSS JOIN's
 * order; given `tasksContaining` as a condition instead, it walked every active task through
 * an index on status and probed the matches (1.8 ms against 1.05 ms for "anket" at 10,000
 * tasks). Null when the query is too short for the trigram index: use tasksContaining then.
 * PostgreSQL has no use for it (its planner costs the pg_trgm index itself).
 */
// biome-ignore lint/suspicious/noExplicitAny: any schema with tasks
export function tasksContainingSource(db: Kysely<any>, folded: string): RawBuilder<unknown> | null {
  if ([...folded].length < TRIGRAM_MIN || isPostgres(db)) return null;
  const phrase = `"${folded.replace(/"/g, '""')}"`;
  return sql`(SELECT rowid AS match_rowid FROM tasks_fts WHERE tasks_fts MATCH ${phrase}) AS matched
    CROSS JOIN tasks ON tasks.rowid = matched.match_rowid`;
}
