import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../testing/factories';
import { createTestApp } from '../testing/test-app';
import { isConstraintViolation, isUniqueViolation } from './errors';

describe('the driver errors, named in db/ only', () => {
  it('tells a unique violation from other constraints, from the real driver', async () => {
    const t = await createTestApp();
    try {
      const user = await makeUser(t.deps.db, { email: 'bir@example.test' });
      const duplicate = await makeUser(t.deps.db, { email: 'bir@example.test' }).catch((e: unknown) => e);
      expect(isUniqueViolation(duplicate)).toBe(true);
      expect(isConstraintViolation(duplicate)).toBe(true);
      const check = await t.deps.db
        .updateTable('users')
        .set({ role: 'superuser' as 'admin' })
        .where('_id', '=', user._id)
        .execute()
        .catch((e: unknown) => e);
      expect(isUniqueViolation(check)).toBe(false);
      expect(isConstraintViolation(check)).toBe(true);
      expect(isUniqueViolation(new Error('x'))).toBe(false);
      // PostgreSQL's SQLSTATE codes (issue 18)
      expect(isUniqueViolation(Object.assign(new Error('dup'), { code: '23505' }))).toBe(true);
      expect(isConstraintViolation(Object.assign(new Error('check'), { code: '23514' }))).toBe(true);
    } finally {
      await t.dispose();
    }
  });

  it('is not known outside db/ by any feature or the HTTP layer', () => {
    const root = join(__dirname, '..');
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        const rel = relative(root, path);
        if (statSync(path).isDirectory()) {
          // db/ owns the driver; the CLI's backup, restore and doctor work on the SQLite file itself
          if (!['db', 'testing', 'cli', 'storage'].includes(rel)) walk(path);
        } else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) {
          if (/SQLITE_|better-sqlite3/.test(readFileSync(path, 'utf8'))) found.push(rel);
        }
      }
    };
    walk(root);
    expect(found).toEqual([]);
  });
});
