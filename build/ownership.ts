/**
 * Who writes which table, and who imports whom, read from the server's source.
 *
 * `tableWriters()` lists, for every table, the folders whose code inserts, updates or deletes its
 * rows (Kysely's insertInto/updateTable/deleteFrom/replaceInto/mergeInto with a literal table
 * name, and INSERT/UPDATE/DELETE written as SQL text). A folder is a feature folder
 * (`features/<x>`) or a top-level folder of src-server (`storage`, `cli`, ...). Test code (files
 * ending in `.test.ts` or `test-helpers.ts`, and `testing/`) builds fixtures and is left out, as are
 * the frozen migrations, which shape the schema rather than own rows.
 *
 * `featureImports()` measures how tangled the feature folders are: the import lines that cross
 * from one feature folder into another, the ordered folder pairs they make, and the circles
 * (groups of folders that reach each other through imports).
 *
 * Run `node build/ownership.ts` for the numbers; the ownership test keeps the first rule.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverRoot = join(root, 'src-server');

const WRITE_METHODS = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
// SQL text that writes a table: the word after the verb is the table (quoted or not).
const SQL_WRITE =
  /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+"?([a-z_][a-z0-9_]*)"?\s*(?:\(|SET\b|VALUES\b|WHERE\b|AS\b|SELECT\b|$)/g;

export interface Write {
  table: string;
  folder: string;
  file: string;
  line: number;
  how: string;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full));
    else if (/\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

const posix = (p: string) => p.split(sep).join('/');

/** `features/tasks` for src-server/features/tasks/x.ts, `storage` for src-server/storage/x.ts. */
export function folderOf(file: string): string {
  const parts = posix(relative(serverRoot, file)).split('/');
  if (parts[0] === 'features' && parts.length > 2) return `features/${parts[1]}`;
  return parts.length > 1 ? parts[0] : '.';
}

function isTestCode(rel: string): boolean {
  return rel.endsWith('.test.ts') || rel.endsWith('test-helpers.ts') || rel.startsWith('testing/');
}

function sourceFiles(): string[] {
  return walk(serverRoot).filter((file) => {
    const rel = posix(relative(serverRoot, file));
    return !isTestCode(rel) && !rel.startsWith('db/migrations/');
  });
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Every write in the server's non-test source, with its table (`?` when the name is not literal). */
export function findWrites(files = sourceFiles()): Write[] {
  const writes: Write[] = [];
  for (const file of files) {
    const source = parse(file);
    const rel = posix(relative(serverRoot, file));
    const record = (node: ts.Node, table: string, how: string) =>
      writes.push({
        table,
        how,
        folder: folderOf(file),
        file: rel,
        line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      });
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        WRITE_METHODS.has(node.expression.name.text)
      ) {
        const arg = node.arguments[0];
        const how = node.expression.name.text;
        if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
          // `users as u` names the table `users`
          record(node, arg.text.trim().split(/\s+/)[0], how);
        } else {
          record(node, '?', how);
        }
      }
      if (
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateExpression(node) ||
        ts.isStringLiteral(node)
      ) {
        const text = node.getText(source);
        for (const match of text.matchAll(SQL_WRITE)) record(node, match[1], 'sql');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return writes;
}

/** table -> the folders that write it (sorted), from `findWrites()`. */
export function tableWriters(writes = findWrites()): Map<string, string[]> {
  const byTable = new Map<string, Set<string>>();
  for (const write of writes) {
    if (write.table === '?') continue;
    const folders = byTable.get(write.table) ?? new Set<string>();
    folders.add(write.folder);
    byTable.set(write.table, folders);
  }
  return new Map(
    [...byTable.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([table, f]) => [table, [...f].sort()]),
  );
}

export function formatWriters(writers: Map<string, string[]>): string {
  const width = Math.max(...[...writers.keys()].map((t) => t.length));
  return [...writers.entries()]
    .map(([table, folders]) => `${table.padEnd(width)}  ${folders.join(', ')}`)
    .join('\n');
}

export interface ImportMeasure {
  /** lines in one feature folder that import from another */
  lines: number;
  /** ordered pairs (from -> to) of feature folders joined by at least one such line */
  pairs: number;
  /** groups of two or more feature folders that reach each other through imports */
  circles: string[][];
  edges: Map<string, Map<string, number>>;
}

const IMPORT_FROM = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Cross-feature imports among src-server/features (test files included when `withTests`). */
export function featureImports(withTests = false): ImportMeasure {
  const featuresRoot = join(serverRoot, 'features');
  const edges = new Map<string, Map<string, number>>();
  let lines = 0;
  for (const file of walk(featuresRoot)) {
    const rel = posix(relative(serverRoot, file));
    if (!withTests && isTestCode(rel)) continue;
    const from = folderOf(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT_FROM)) {
      const target = resolve(dirname(file), match[1]);
      const targetRel = posix(relative(serverRoot, target));
      if (!targetRel.startsWith('features/')) continue;
      const to = `features/${targetRel.split('/')[1]}`;
      if (to === from) continue;
      lines++;
      const out = edges.get(from) ?? new Map<string, number>();
      out.set(to, (out.get(to) ?? 0) + 1);
      edges.set(from, out);
    }
  }
  const pairs = [...edges.values()].reduce((n, out) => n + out.size, 0);
  return { lines, pairs, circles: stronglyConnected(edges), edges };
}

/** Tarjan's strongly connected components with more than one member. */
function stronglyConnected(edges: Map<string, Map<string, number>>): string[][] {
  const nodes = new Set<string>([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) connect(v);
  return found;
}

function main() {
  const writes = findWrites();
  const writers = tableWriters(writes);
  console.log('table -> folders that insert, update or delete it');
  console.log(formatWriters(writers));
  const shared = [...writers.entries()].filter(([, folders]) => folders.length > 1);
  console.log(`\ntables with more than one writing folder: ${shared.length}`);
  const dynamic = writes.filter((w) => w.table === '?');
  if (dynamic.length) {
    console.log(`writes with a table name that is not literal: ${dynamic.length}`);
    for (const w of dynamic) console.log(`  ${w.file}:${w.line} ${w.how}`);
  }
  for (const withTests of [false, true]) {
    const m = featureImports(withTests);
    console.log(
      `\ncross-feature imports (${withTests ? 'with' : 'without'} tests): ${m.lines} lines, ${m.pairs} folder pairs, ${m.circles.length} circles`,
    );
    for (const circle of m.circles) console.log(`  circle of ${circle.length}: ${circle.join(', ')}`);
  }
  if (process.argv.includes('--writes')) {
    console.log('\nevery write:');
    for (const w of writes) console.log(`  ${w.table.padEnd(16)} ${w.how.padEnd(12)} ${w.file}:${w.line}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
