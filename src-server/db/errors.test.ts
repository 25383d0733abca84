import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../testing/factories';
import { createTestApp } from '../testing/test-app';
import { isConstraintViolation, isUniqueViolation, isUnstorableText } from './errors';

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
      // PostgreSQL's SQLSTATE codes
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

describe('text the database cannot hold', () => {
  it('is a 400 on either engine, never a 500, and writes nothing', async () => {
    const t = await createTestApp();
    try {
      const admin = await makeUser(t.deps.db, { role: 'admin' });
      const token = await t.tokenFor(admin);
      const lookup = await t.call('GET', '/api/tasks/%00', { token });
      expect([400, 404]).toContain(lookup.status);
      const before = await t.deps.db.selectFrom('tasks').select('_id').execute();
      const write = await t.call('POST', '/api/tasks', {
        token,
        body: { title: 'a\u0000b', description: 'x', reward: 5, maxCompletions: 1, category: 'survey' },
      });
      expect(write.status).toBeLessThan(500);
      if (write.status >= 400)
        expect(await t.deps.db.selectFrom('tasks').select('_id').execute()).toEqual(before);
      expect(isUnstorableText(Object.assign(new Error('nul'), { code: '22021' }))).toBe(true);
      expect(isUnstorableText(new Error('other'))).toBe(false);
    } finally {
      await t.dispose();
    }
  });
});
