import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findWrites, formatWriters, tableWriters } from './ownership';

// Only the folder that owns a table inserts, updates or deletes its rows; every other folder calls
// that folder's functions. When two folders write one table, their rules for it drift apart
// unseen (a guarded and an unguarded "complete" of one record), so the listing is checked here.
describe('table ownership', () => {
  it('gives every table exactly one writing folder', () => {
    const writers = tableWriters();
    const shared = [...writers.entries()].filter(([, folders]) => folders.length > 1);
    expect(
      shared,
      `tables written from more than one folder:\n${formatWriters(new Map(shared))}\n\nthe whole listing:\n${formatWriters(writers)}`,
    ).toEqual([]);
  });

  it('finds the tables a feature writes, so the rule above can fail', () => {
    const writers = tableWriters();
    // the owners of the core tables, as the README's Layout and docs/architecture.md draw them
    expect(writers.get('users')).toEqual(['features/users']);
    expect(writers.get('tasks')).toEqual(['features/tasks']);
    expect(writers.get('user_tasks')).toEqual(['features/tasks']);
    expect(writers.get('submissions')).toEqual(['features/submissions']);
    expect(writers.get('appeals')).toEqual(['features/submissions']);
    expect(writers.get('withdrawals')).toEqual(['features/withdrawals']);
    expect(writers.get('ledger')).toEqual(['features/money']);
    expect(writers.size).toBeGreaterThanOrEqual(17);
  });

  describe('reads every way a write is spelled', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ownership-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'sample.ts');
    writeFileSync(
      file,
      [
        "db.insertInto('a').values(x);",
        "db\n  .updateTable(\n    'b as bb'\n  ).set(y);",
        'db.deleteFrom(name);',
        'sql`INSERT INTO c (x) VALUES (1)`.execute(db);',
        'db.executeQuery(sql.raw(\'UPDATE "d" SET x = 1\'));',
        "// an UPDATE of the user row, in a comment, is no write; nor is 'an update of e'",
        "db.selectFrom('f').selectAll();",
      ].join('\n'),
    );
    it('as Kysely calls, SQL text and names that are not literal', () => {
      const found = findWrites([file]).map((w) => `${w.how} ${w.table}`);
      expect(found).toEqual(['insertInto a', 'updateTable b', 'deleteFrom ?', 'sql c', 'sql d']);
    });
  });
});
