/**
 * What the database driver says when a constraint refuses a write, so no feature needs to know
 * the driver (better-sqlite3 today; PostgreSQL's SQLSTATE codes are recognised too).
 */
function codeOf(err: unknown): string {
  return err instanceof Error && 'code' in err ? String(err.code) : '';
}

/** A unique index (or a primary key) refused the row: someone else wrote it first. */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Any constraint refused the write (unique, check, foreign key, not null). */
export function isConstraintViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code.startsWith('SQLITE_CONSTRAINT') || /^23[0-9A-Z]{3}$/.test(code);
}

/**
 * Text the database cannot hold: PostgreSQL refuses a NUL character (U+0000) in text, in a lookup
 * as in a write (SQLSTATE 22021, and 22P05 for text its encoding cannot take). The request was
 * malformed; nothing was written (http/on-error.ts answers 400).
 */
export function isUnstorableText(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
}
