import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { migrations } from './index';

// A migration that has shipped must do the same on every database it ever meets, so it may not
// import anything the app can change later (the folding of search text, a dialect helper, a
// list of categories): what it needs of those is written out in the file as it was that day.
// Kysely is the one import allowed; it is a pinned dependency, not the app's code.
const ALLOWED = new Set(['kysely']);

const folder = import.meta.dirname;
const files = readdirSync(folder).filter(
  (name) => name.endsWith('.ts') && name !== 'index.ts' && !name.endsWith('.test.ts'),
);

/** Every module a file imports or re-exports, statically or with import() or require(). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(folder, file), 'utf8'), true, true);
  return info.importedFiles.map((imported) => imported.fileName);
}

describe('frozen migrations', () => {
  it('finds every registered migration in the folder', () => {
    expect(files.map((name) => name.replace(/\.ts$/, '')).sort()).toEqual(Object.keys(migrations).sort());
  });

  it.each(files)('%s imports nothing but Kysely', (file) => {
    const imports = importsOf(file);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((name) => !ALLOWED.has(name))).toEqual([]);
  });

  it('sees an import of the app for what it is', () => {
    const info = ts.preProcessFile(
      "import { sql } from 'kysely';\nimport { foldSearch } from '../search';\nconst m = await import('../../features/tasks/task-search');",
      true,
      true,
    );
    expect(info.importedFiles.map((imported) => imported.fileName)).toEqual([
      'kysely',
      '../search',
      '../../features/tasks/task-search',
    ]);
  });
});
