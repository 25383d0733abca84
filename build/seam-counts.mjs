#!/usr/bin/env node
// Counts the seams between HTTP and the services, re-runnable on any commit:
//   node build/seam-counts.mjs            a table
//   node build/seam-counts.mjs --json     the same numbers as JSON
// Each number is read from the source text (no build, no imports), so it can be run on an
// old checkout to compare. Test files and test helpers are left out: they may speak HTTP.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = join(import.meta.dirname, '..');
const server = join(root, 'src-server');

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const isTest = (file) => /\.test\.tsx?$|\.spec\.ts$|test-helpers\.ts$|[\\/]testing[\\/]/.test(file);
const rel = (file) => relative(root, file).split(sep).join('/');
const sources = walk(server)
  .filter((f) => !isTest(f))
  .map((f) => ({ file: rel(f), text: readFileSync(f, 'utf8') }));
const features = sources.filter((s) => s.file.startsWith('src-server/features/'));
const routeFiles = features.filter((s) => s.file.endsWith('.routes.ts'));

const count = (text, re) => (text.match(re) ?? []).length;
const sum = (list, re) => list.reduce((n, s) => n + count(s.text, re), 0);
const where = (list, re) => list.filter((s) => re.test(s.text)).map((s) => s.file);

// JSON bodies read by a route: readJson(c, <schema>); those read as "any object" have no schema
const bodyReads = [];
for (const s of routeFiles) {
  for (const m of s.text.matchAll(/readJson\(\s*c\s*,\s*([\w.]+)/g))
    bodyReads.push({ file: s.file, schema: m[1] });
}
const withoutSchema = bodyReads.filter((r) => /^anyObject$|^z\.(record|unknown|any)/.test(r.schema));

// services handed the raw body: an exported function with a parameter `body: unknown` or a record of unknowns
const rawBodyParams = where(features, /\bbody:\s*(unknown|Record<string,\s*unknown>)\s*[,)]/);

// success envelopes written by hand, as an object or as text
const handObjects = sum(features, /success:\s*true/g);
const handStrings = sum(features, /"success":true|JSON\.stringify\(\{\s*success:\s*true/g);
const handObjectsOnly = handObjects - sum(features, /JSON\.stringify\(\{\s*success:\s*true/g);

// feature files other than routes importing from src-server/http/
const httpImport = /from\s+'(?:\.\.\/)+http\/([\w-]+)'/g;
const nonRoute = features.filter((s) => !s.file.endsWith('.routes.ts'));
const nonRouteHttp = nonRoute.filter((s) => httpImport.test(s.text));
httpImport.lastIndex = 0;
const httpModules = {};
for (const s of nonRoute) {
  for (const m of s.text.matchAll(httpImport)) httpModules[m[1]] = (httpModules[m[1]] ?? 0) + 1;
}
// files anywhere outside http/ (tests left out) that import the error module from http/
const appErrorFromHttp = sources.filter(
  (s) => !s.file.startsWith('src-server/http/') && /from\s+'(?:\.\.\/|\.\/)+http\/app-error'/.test(s.text),
).length;

// the row type of users declared in http/env.ts (a row type belongs with its repository)
const envText = sources.find((s) => s.file === 'src-server/http/env.ts')?.text ?? '';
const rowTypesInHttp = count(envText, /export type \w+Row\b|export interface \w+Row\b/g);

// module-level singletons a request reaches outside the app's deps
const singletons = sources
  .filter((s) => /^(?:const|let) \w+ = new (?:Weak)?Map\b/m.test(s.text))
  .filter((s) => /export function (?:fileStoreFor|openFileStore|taskListCache)\b/.test(s.text))
  .map((s) => s.file);

// reads remembered under the change stamp, made at module level instead of in the app's deps
// (two apps in one process would share them)
const stampedSingletons = sources
  .filter((s) => /^(?:export )?(?:const|let) \w+ = new StampedReads\b/m.test(s.text))
  .map((s) => s.file);

// task-list invalidation written out at a task write
const bumps =
  sum(features, /\bbumpTaskListVersion\(/g) - sum(features, /export async function bumpTaskListVersion/g);
const clears = sum(features, /taskListCache\([^)]*\)\.clear\(\)|\.taskList\.clear\(\)/g);

// enum columns of tasks cast to their unions
const enumCasts = sum(sources, /\bas (?:TaskStatus|Difficulty|ProofType|Category)\b/g);

const numbers = {
  'JSON body reads in routes': bodyReads.length,
  'JSON routes without a zod body schema (anyObject)': withoutSchema.length,
  'feature files taking a raw body (unknown)': rawBodyParams.length,
  'hand-written success envelopes (objects)': handObjectsOnly,
  'success envelopes built as text': handStrings,
  'non-route feature files importing http/': nonRouteHttp.length,
  'files outside http/ importing http/app-error': appErrorFromHttp,
  'row types declared in http/env.ts': rowTypesInHttp,
  'module-level singletons outside deps (file store, task-list cache)': singletons.length,
  'module-level StampedReads outside deps': stampedSingletons.length,
  'bumpTaskListVersion calls at task writes': bumps,
  'task-list cache clears at task writes': clears,
  'casts of task enum columns': enumCasts,
};

if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify(
      {
        numbers,
        httpModules,
        withoutSchema,
        rawBodyParams,
        nonRouteHttp: nonRouteHttp.map((s) => s.file),
        singletons,
        stampedSingletons,
      },
      null,
      2,
    ),
  );
} else {
  const width = Math.max(...Object.keys(numbers).map((k) => k.length));
  for (const [k, v] of Object.entries(numbers)) console.log(`${k.padEnd(width)}  ${v}`);
  console.log(`\nhttp/ modules imported by non-route feature files: ${JSON.stringify(httpModules)}`);
  if (process.argv.includes('--list')) {
    console.log('\nwithout a schema:', withoutSchema);
    console.log('raw bodies:', rawBodyParams);
    console.log(
      'importing http/:',
      nonRouteHttp.map((s) => s.file),
    );
    console.log('singletons:', singletons);
    console.log('StampedReads outside deps:', stampedSingletons);
  }
}
