// Builds the single binary (Node's single executable application): dist/binary/taskreward.
//   node build/binary.mjs         (npm run build:binary)
// The server is bundled again as one CommonJS file with better-sqlite3 and argon2 inside; the
// modules through which they load their native addons are swapped for stand-ins that load the
// addons embedded as SEA assets from a cache folder (the list is build/sea/native.mjs). The built
// web app is embedded as assets too and served from memory. The result is this Node (24) plus
// the app: it runs `serve` and every CLI command with no Node installed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
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
import { awsSdkApart, serverNodeFlags, serverOptions } from './build.mjs';
import { nativeParts, underNodeModules } from './sea/native.mjs';
import { sharpWasmFiles } from './sea/sharp-wasm.mjs';

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

const native = nativeParts();

/** esbuild plugin: each native package's loader becomes its stand-in (build/sea/native.mjs). */
const nativeStandIns = {
  name: 'sea-native-stand-ins',
  setup(build) {
    native.forEach((part, i) => {
      build.onResolve({ filter: part.module }, (args) =>
        part.importer.test(args.importer) ? { path: String(i), namespace: 'sea-native' } : undefined,
      );
    });
    build.onLoad({ filter: /.*/, namespace: 'sea-native' }, (args) => ({
      contents: `const { loadEmbeddedAddon: load } = require('./src-server/cli/embedded.ts');\n${native[Number(args.path)].standIn(native[Number(args.path)].files)}`,
      resolveDir: root,
      loader: 'js',
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
  // build.mjs's own plugins (zod's English only, the lazy argon2 and rate-limiter imports) too,
  // but the AWS SDK inside: a binary has no file beside it to load it from. It is evaluated at the
  // first S3 request only (esbuild wraps what a dynamic import() reaches).
  plugins: [...(serverOptions.plugins ?? []).filter((p) => p !== awsSdkApart), nativeStandIns],
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
// the native files, under their node_modules paths, and the id of the set: the cache folder's name
const nativeFiles = new Map(native.flatMap((part) => part.files).map((f) => [underNodeModules(f), f]));
// sharp's WebAssembly build, the fallback where its native addon cannot load
for (const [name, file] of sharpWasmFiles()) nativeFiles.set(name, file);
const nativeId = createHash('sha256');
for (const [name, file] of [...nativeFiles].sort()) nativeId.update(`${name}\0`).update(readFileSync(file));
writeFileSync(
  join(work, 'native.json'),
  JSON.stringify({ id: nativeId.digest('hex').slice(0, 16), files: [...nativeFiles.keys()].sort() }),
);
const assets = { 'native.json': join(work, 'native.json') };
for (const [name, file] of nativeFiles) assets[`native/${name}`] = file;
for (const path of paths) assets[`web${path}`] = join(webDir, ...path.slice(1).split('/'));
const config = {
  main: join(work, 'main.cjs'),
  output: join(work, 'sea-prep.blob'),
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  // the server's Node flags (src-server/node-flags.json), applied by the binary at every start
  execArgv: serverNodeFlags(),
  assets,
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
// the blob's code cache is made with the server's flags: V8 rejects a cache made under other
// flags (--initial-old-space-size is part of its flag hash), and says so on every start
run(process.execPath, [...serverNodeFlags(), '--experimental-sea-config', join(work, 'sea-config.json')]);

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
  `built ${relative(root, exe)} (${mb} MiB, Node ${process.version}, ${nativeFiles.size} native files, ${paths.length} web files) in ${Date.now() - started} ms`,
);
