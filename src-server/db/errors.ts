/**
 * What the database driver says when a constraint refuses a write, so no feature needs to know
 * the driver (better-sqlite3 today; PostgreSQL's SQLSTATE codes are recognised too, issue 18).
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
