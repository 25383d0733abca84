// npm run bench: builds the app if needed, bundles bench/run.ts into dist/bench/run.cjs and
// runs it, passing the arguments through (see bench/run.ts for them: --quick, --keep, --data DIR).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist/bench/run.cjs');

const built = spawnSync(process.execPath, [join(root, 'build/build.mjs'), '--if-needed'], {
  cwd: root,
  stdio: 'inherit',
});
if (built.status !== 0) process.exit(built.status ?? 1);

await esbuild.build({
  entryPoints: [join(root, 'bench/run.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  sourcemap: true,
  // native addons, the bundler and the browser driver load from node_modules at run time
  external: ['better-sqlite3', 'argon2', 'esbuild', 'playwright-core', 'playwright'],
  define: { 'import.meta.url': '__import_meta_url' },
  banner: { js: 'const __import_meta_url = require("url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});

// the log's and the metrics' cost, run by the bench as a child of its own (bench/observability-step.ts);
// its source map tells the profile's frames apart by the file they come from
await esbuild.build({
  entryPoints: [join(root, 'bench/observability-cost.ts')],
  outfile: join(root, 'dist/bench/observability-cost.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  sourcemap: true,
  external: ['better-sqlite3', 'argon2', 'sharp'],
  define: { 'import.meta.url': '__import_meta_url' },
  banner: { js: 'const __import_meta_url = require("url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});

const run = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
