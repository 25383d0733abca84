// Builds the single binary (Node's single executable application): dist/binary/taskreward.
//   node build/binary.mjs         (npm run build:binary)
// The server is bundled again as one CommonJS file with better-sqlite3 and argon2 inside; their
// loaders (`bindings`, `node-gyp-build`) are swapped for shims that load the native addons,
// embedded as SEA assets, from a cache folder. The built web app is embedded as assets too and
// served from memory. The result runs `serve` and every CLI command with no Node installed.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { serverOptions } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const out = join(root, 'dist/binary');
const work = join(root, 'dist/sea');
const exe = join(out, process.platform === 'win32' ? 'taskreward.exe' : 'taskreward');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const started = Date.now();

function run(cmd, args) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
}

/** esbuild plugin: the native loaders of better-sqlite3 and argon2 become the SEA shims. */
const nativeShims = {
  name: 'sea-native-shims',
  setup(build) {
    build.onResolve({ filter: /^bindings$/ }, () => ({ path: join(root, 'build/sea/bindings.cjs') }));
    build.onResolve({ filter: /^node-gyp-build$/ }, () => ({
      path: join(root, 'build/sea/node-gyp-build.cjs'),
    }));
  },
};

function webFiles(dir) {
  const files = [];
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      // source maps are never served (src-server/http/web-assets.ts): not embedded either
      else if (!name.endsWith('.map')) files.push(`/${relative(dir, full).split(sep).join('/')}`);
    }
  };
  walk(dir);
  return files.sort();
}

// 1. the server and the web app, as `npm start` builds them
run(process.execPath, ['build/build.mjs', '--if-needed', '--quiet']);

// 2. the server again, self-contained
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
mkdirSync(out, { recursive: true });
await esbuild.build({
  ...serverOptions,
  outfile: join(work, 'main.cjs'),
  external: [],
  sourcemap: false,
  minify: true,
  keepNames: true,
  // build.mjs's own plugins (zod's English only, the lazy argon2 and rate-limiter imports) too
  plugins: [...(serverOptions.plugins ?? []), nativeShims],
});

// 3. the assets: the native addons and every file of dist/web (copied first: another build in
// the same tree may be rewriting dist/web meanwhile), the `.br`/`.gz` copies build.mjs wrote
// included: the server sends them as they are
const webDir = join(work, 'web');
for (let attempt = 1; ; attempt++) {
  try {
    rmSync(webDir, { recursive: true, force: true });
    cpSync(join(root, 'dist/web'), webDir, { recursive: true });
    if (!existsSync(join(webDir, 'index.html'))) throw new Error('dist/web has no index.html');
    break;
  } catch (err) {
    if (attempt === 5) throw err;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    run(process.execPath, ['build/build.mjs', '--if-needed', '--quiet']);
  }
}
const paths = webFiles(webDir);
writeFileSync(join(work, 'web-index.json'), JSON.stringify(paths));
const assets = {
  'better_sqlite3.node': require.resolve('better-sqlite3/build/Release/better_sqlite3.node'),
  'argon2.node': require('node-gyp-build').resolve(dirname(require.resolve('argon2/package.json'))),
  'web-index.json': join(work, 'web-index.json'),
};
for (const path of paths) assets[`web${path}`] = join(webDir, ...path.slice(1).split('/'));
const config = {
  main: join(work, 'main.cjs'),
  output: join(work, 'sea-prep.blob'),
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  assets,
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
run(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')]);

// 4. a copy of this Node with the blob injected
rmSync(exe, { force: true });
copyFileSync(process.execPath, exe);
chmodSync(exe, 0o755);
if (process.platform === 'darwin') run('codesign', ['--remove-signature', exe]);
const { inject } = require('postject');
await inject(exe, 'NODE_SEA_BLOB', readFileSync(config.output), {
  sentinelFuse: FUSE,
  machoSegmentName: process.platform === 'darwin' ? 'NODE_SEA' : undefined,
});
if (process.platform === 'darwin') run('codesign', ['--sign', '-', exe]);

const mb = (statSync(exe).size / 1024 / 1024).toFixed(1);
console.log(
  `built ${relative(root, exe)} (${mb} MiB, ${paths.length} web files) in ${Date.now() - started} ms`,
);
