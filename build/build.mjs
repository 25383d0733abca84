// Builds the server bundle (dist/server/server.cjs, started through the loader dist/server/main.cjs)
// and the web app (dist/web) with esbuild.
//   node build/build.mjs              build everything
//   node build/build.mjs --if-needed  build only when a source is newer than the last build
//   node build/build.mjs --watch      rebuild on change and restart the server (npm run dev)
import './require-node.mjs'; // first: refuses an old Node before anything else loads
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import * as esbuild from 'esbuild';
import { writeIcons } from './icons.mjs';
import { minimumNode } from './node-version.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The Node flags every server process runs with (src-server/node-flags.json; docs/decisions.md). */
export function serverNodeFlags() {
  return JSON.parse(readFileSync(join(root, 'src-server/node-flags.json'), 'utf8')).server;
}
const dist = join(root, 'dist');
const stamp = join(dist, '.build-stamp');
const args = new Set(process.argv.slice(2));
const quiet = args.has('--quiet');
const log = (msg) => quiet || console.log(msg);

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name === 'e2e') continue;
    newest = Math.max(newest, newestMtime(join(path, name)));
  }
  return newest;
}

function upToDate() {
  if (
    !existsSync(stamp) ||
    !existsSync(join(dist, 'server/main.cjs')) ||
    !existsSync(join(dist, 'server/server.cjs')) ||
    !existsSync(join(dist, 'server', AWS_SDK_FILE)) ||
    !existsSync(join(dist, 'server/tuned.cjs')) ||
    !existsSync(join(dist, 'web/index.html'))
  ) {
    return false;
  }
  const sources = ['src-server', 'src-web', 'build', 'package.json'].map((p) => newestMtime(join(root, p)));
  return Math.max(...sources) <= statSync(stamp).mtimeMs;
}

// zod 4 puts every language's error messages in its namespace (`z.locales`, `z.core.locales`), and
// `import { z } from 'zod'` keeps the whole namespace, so ~45 languages (about 38 KB of gzipped
// JavaScript in every page that validates, 360 KB of the server bundle) shipped unused. This keeps
// only English, which zod configures itself with; the app shows its own messages, never zod's.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '../locales/index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

// Start-up: the server bundle loads every module before it listens, so those that serving does
// not need at once are trimmed. argon2 (a native addon, ~25 ms to load) is loaded at the first
// password hash or check instead; rate-limiter-flexible's index loads every store it has
// (cluster, Redis, Mongo...), of which the app uses the in-memory one; prom-client's index loads
// its push gateway (Node's http and https clients), summaries and cluster aggregation, which the
// app does not use (its own pieces took a third of the bundle's start-up, measured by timing each
// package's first require at start). A new named import from any of them fails the build ("No
// matching export"), so this cannot go wrong quietly.
const lazyServerModules = {
  name: 'lazy-server-modules',
  setup(build) {
    build.onResolve({ filter: /^argon2$/ }, (args) =>
      args.namespace === 'lazy' ? undefined : { path: 'argon2', namespace: 'lazy' },
    );
    build.onResolve({ filter: /^rate-limiter-flexible$/ }, () => ({
      path: 'rate-limiter-flexible',
      namespace: 'lazy',
    }));
    build.onResolve({ filter: /^prom-client$/ }, () => ({ path: 'prom-client', namespace: 'lazy' }));
    // pg and cli-progress: a server on SQLite never opens a PostgreSQL pool nor draws a bar (the
    // move does both), so each is loaded at its first use, through an object that forwards to it
    build.onResolve({ filter: /^(pg|cli-progress)$/ }, (args) =>
      args.namespace === 'lazy' ? undefined : { path: args.path, namespace: 'lazy' },
    );
    build.onLoad({ filter: /^(pg|cli-progress)$/, namespace: 'lazy' }, (args) => ({
      contents: `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(args.path)}));
export default new Proxy({}, { get: (_target, key) => load()[key], has: (_target, key) => key in load() });`,
      resolveDir: root,
    }));
    build.onLoad({ filter: /^argon2$/, namespace: 'lazy' }, () => ({
      contents: `let loaded;
const load = () => {
  if (!loaded) {
    loaded = require('argon2');
    if (loaded.argon2id !== 2 || loaded.argon2i !== 1 || loaded.argon2d !== 0) throw new Error('argon2 changed its type constants');
  }
  return loaded;
};
export default {
  argon2d: 0,
  argon2i: 1,
  argon2id: 2,
  hash: (...args) => load().hash(...args),
  verify: (...args) => load().verify(...args),
  needsRehash: (...args) => load().needsRehash(...args),
};`,
      resolveDir: root,
    }));
    build.onLoad({ filter: /^prom-client$/, namespace: 'lazy' }, () => ({
      contents: `export { default as Registry } from 'prom-client/lib/registry.js';
export { default as Counter } from 'prom-client/lib/counter.js';
export { default as Gauge } from 'prom-client/lib/gauge.js';
export { default as Histogram } from 'prom-client/lib/histogram.js';
export { default as collectDefaultMetrics } from 'prom-client/lib/defaultMetrics.js';`,
      resolveDir: root,
    }));
    build.onLoad({ filter: /^rate-limiter-flexible$/, namespace: 'lazy' }, () => ({
      contents: `export { default as RateLimiterMemory } from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
export { default as RateLimiterRes } from 'rate-limiter-flexible/lib/RateLimiterRes.js';`,
      resolveDir: root,
    }));
  },
};

// The AWS SDK (files in an S3 bucket, src-server/storage/s3-file-store.ts) is ~1.4 MB of
// JavaScript that a server keeping its files in the data folder never runs, and compiling it with
// the bundle added ~50 ms to every start. So it is a file of its own, dist/server/aws-sdk-s3.cjs,
// required at the first S3 request: the store's `import('@aws-sdk/client-s3')` becomes
// `require('./aws-sdk-s3.cjs')`, resolved beside server.cjs. The single binary has no files beside
// it and bundles the SDK inside (build/binary.mjs drops this plugin).
export const AWS_SDK_FILE = 'aws-sdk-s3.cjs';
export const awsSdkApart = {
  name: 'aws-sdk-apart',
  setup(build) {
    // a module that requires the file (an external import() would stay an import(), which code
    // compiled through vm, as the loader does, cannot run)
    build.onResolve({ filter: /^@aws-sdk\/client-s3$/ }, () => ({
      path: AWS_SDK_FILE,
      namespace: 'aws-sdk-apart',
    }));
    build.onResolve({ filter: /^\.\/aws-sdk-s3\.cjs$/ }, (args) =>
      args.namespace === 'aws-sdk-apart' ? { path: args.path, external: true } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'aws-sdk-apart' }, () => ({
      contents: `module.exports = require('./${AWS_SDK_FILE}');`,
      loader: 'js',
    }));
  },
};

const awsSdkOptions = {
  stdin: { contents: "module.exports = require('@aws-sdk/client-s3');", resolveDir: root, loader: 'js' },
  outfile: join(dist, 'server', AWS_SDK_FILE),
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  logLevel: 'warning',
};

// The malloc restart on its own (src-server/cli/tuned.ts and what it imports, a few KB): the
// loader runs it before it reads the server's bundle, so the process that only starts itself
// again does not first read and compile 3 MB of code (about 300 ms of every start here).
const tunedOptions = {
  entryPoints: [join(root, 'src-server/cli/tuned.ts')],
  outfile: join(dist, 'server/tuned.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  logLevel: 'warning',
};

export const serverOptions = {
  entryPoints: [join(root, 'src-server/main.ts')],
  outfile: join(dist, 'server/server.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  sourcemap: true,
  external: ['better-sqlite3', 'argon2', 'sharp'],
  define: {
    'process.env.NODE_ENV': '"production"',
    'import.meta.url': '__import_meta_url',
  },
  banner: { js: 'const __import_meta_url = require("url").pathToFileURL(__filename).href;' },
  plugins: [zodEnglishOnly, lazyServerModules, awsSdkApart],
  logLevel: 'warning',
};

const webOptions = {
  entryPoints: [join(root, 'src-web/main.tsx')],
  outdir: join(dist, 'web/assets'),
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome110', 'safari16', 'firefox115'],
  minify: true,
  // written beside the bundles for developers and the bench, never linked from them nor served
  sourcemap: 'external',
  metafile: true,
  jsx: 'automatic',
  loader: { '.svg': 'file', '.png': 'file' },
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
};

function indexHtml(metafile) {
  const outputs = Object.entries(metafile.outputs);
  const [jsPath, entry] = outputs.find(([, o]) => o.entryPoint?.endsWith('src-web/main.tsx'));
  const cssPath = entry.cssBundle;
  const url = (p) => `/${relative(join(dist, 'web'), join(root, p)).split('\\').join('/')}`;
  return `<!doctype html>
<html lang="tr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#4f46e5">
<meta name="description" content="TaskReward: complete simple tasks, earn Turkish lira.">
<title>TaskReward</title>
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/icon-192.png">
${cssPath ? `<link rel="stylesheet" href="${url(cssPath)}">\n` : ''}<script type="module" src="${url(jsPath)}"></script>
</head>
<body>
<div id="root"></div>
<noscript>TaskReward needs JavaScript.</noscript>
</body>
</html>
`;
}

function finishWeb(result) {
  const webDir = join(dist, 'web');
  cpSync(join(root, 'src-web/public'), webDir, { recursive: true });
  writeIcons(webDir);
  writeFileSync(join(webDir, 'index.html'), indexHtml(result.metafile));
  // the service worker's cache name follows the build, so a new build replaces the old cache
  const version = createHash('sha256')
    .update(Object.keys(result.metafile.outputs).join())
    .digest('hex')
    .slice(0, 12);
  writeFileSync(join(webDir, 'build-version.txt'), version);
}

// The server sends text files precompressed (src-server/http/static.ts picks by Accept-Encoding)
// and never compresses at start-up or per request, so each one over 1 KB (and index.html, fetched
// again at every visit) gets a `.br` (brotli, quality 11) and a `.gz` (gzip, level 9) copy here,
// kept only when smaller. The extensions match COMPRESSIBLE in src-server/http/web-assets.ts.
// Source maps (4 MB, fetched only by developer tools) get none: their copies took 10 of the 12 s
// of compressing on 2 cores, and reading them added ~8 ms to the server's start. zlib's async
// calls run on the thread pool, so files compress in parallel. A copy newer than its file is
// kept (watch-mode rebuilds).
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.json', '.svg', '.webmanifest', '.txt']);
const MIN_COMPRESS_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export async function precompress(dir) {
  const files = [];
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (
        COMPRESSIBLE.has(extname(name)) &&
        (st.size > MIN_COMPRESS_BYTES || full === join(dir, 'index.html'))
      )
        files.push([full, st]);
    }
  };
  walk(dir);
  const fresh = (file, st) => existsSync(file) && statSync(file).mtimeMs >= st.mtimeMs;
  let written = 0;
  await Promise.all(
    files.map(async ([full, st]) => {
      const variants = [
        [
          `${full}.br`,
          (b) =>
            brotli(b, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: 11,
                [zlib.BROTLI_PARAM_SIZE_HINT]: b.length,
              },
            }),
        ],
        [`${full}.gz`, (b) => gzipAsync(b, { level: 9 })],
      ].filter(([file]) => !fresh(file, st));
      if (!variants.length) return;
      const body = await readFile(full);
      await Promise.all(
        variants.map(async ([file, compress]) => {
          const packed = await compress(body);
          if (packed.length >= body.length) rmSync(file, { force: true });
          else {
            await writeFile(file, packed);
            written++;
          }
        }),
      );
    }),
  );
  return written;
}

// The server starts through a small loader (dist/server/main.cjs) that compiles the bundle with a
// V8 code cache: a process that found no cache it could use writes one a few seconds after it
// started, or when it stops if that comes first (so the functions start-up ran are in it), and
// later starts skip most of the compiling (about 130 ms of a start on this machine). The cache file
// is named by the bundle's hash, so a rebuilt bundle never meets an old cache, and by the process's
// Node flags, since V8 refuses a cache made under other flags: without that, a `migrate` or a
// `doctor` run without the server's flags replaced the server's cache, and every start after it
// compiled the whole bundle again. A folder that cannot be written just starts without one. The
// single binary has its own code cache (build/binary.mjs, SEA useCodeCache). Node (20 and 24) applies no
// source map to code compiled through vm, so with --enable-source-maps (npm start, npm run dev)
// the loader requires the bundle as usual and stack traces keep pointing at the sources.
// The bundle is kept to ASCII so the loader can read it as Latin-1: V8 then holds it as a string
// of one byte per character, which reads, hashes (for the code cache) and parses faster than the
// two bytes per character any other character forces on the whole 3 MB (about 40 ms of CPU per
// start here). esbuild already escapes strings and names; what it leaves are comments and a
// few regular-expression literals, where an escape means the same.
function asciiServerBundle() {
  const file = join(dist, 'server/server.cjs');
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (ascii !== text) writeFileSync(file, ascii);
}

function writeServerLoader() {
  const dir = join(dist, 'server');
  const bundle = readFileSync(join(dir, 'server.cjs'));
  const hash = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
  for (const name of readdirSync(dir)) {
    if (/^server\.[0-9a-f]{16}(\.[0-9a-f]{8})?\.cache$/.test(name) && !name.startsWith(`server.${hash}.`))
      rmSync(join(dir, name));
  }
  rmSync(join(dir, 'main.cjs.map'), { force: true }); // from before the loader
  writeFileSync(
    join(dir, 'main.cjs'),
    `'use strict';
// Generated by build/build.mjs: runs server.cjs through a V8 code cache (see writeServerLoader).
// An older Node than package.json's "engines" is refused with a message, not a stack trace.
const [major, minor, patch] = process.versions.node.split('.').map(Number);
const wanted = ${JSON.stringify(minimumNode())};
if (major * 1e6 + minor * 1e3 + patch < wanted[0] * 1e6 + wanted[1] * 1e3 + wanted[2]) {
  console.error('TaskReward needs Node.js ' + wanted.join('.') + ' or newer; this is Node.js ' + process.version + ' (' + process.execPath + '). See "Which Node" in README.md.');
  process.exit(1);
}
// Starts the process again with glibc's malloc tuned when it should (src-server/cli/tuned.ts),
// before anything else is read; the bundle checks again and finds it done.
require('./tuned.cjs');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');
const file = path.join(__dirname, 'server.cjs');
// Node (20 and 24) maps no stack trace of code compiled by vm: with --enable-source-maps (npm start), the
// bundle is required as usual so errors point at the TypeScript sources.
if (process.sourceMapsEnabled || process.execArgv.includes('--enable-source-maps')) {
  module.exports = require(file);
  return;
}
const flags = require('node:crypto').createHash('sha256').update(process.execArgv.join('\\n')).digest('hex').slice(0, 8);
const cacheFile = path.join(__dirname, 'server.${hash}.' + flags + '.cache');
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {}
// ASCII only (asciiServerBundle), so Latin-1 reads it as it is, one byte per character
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'latin1')), { filename: file, cachedData });
const bundle = new Module(file, module);
bundle.filename = file;
bundle.paths = Module._nodeModulePaths(__dirname);
if (cachedData === undefined || script.cachedDataRejected) {
  let written = false;
  const writeCache = () => {
    if (written) return;
    written = true;
    const temp = cacheFile + '.' + process.pid;
    try {
      fs.writeFileSync(temp, script.createCachedData());
      fs.renameSync(temp, cacheFile);
    } catch {
      try { fs.rmSync(temp, { force: true }); } catch {}
    }
  };
  setTimeout(writeCache, 3000).unref();
  process.once('exit', writeCache);
}
script.runInThisContext().call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, __dirname);
`,
  );
}

async function buildOnce() {
  const started = Date.now();
  rmSync(join(dist, 'web'), { recursive: true, force: true });
  mkdirSync(join(dist, 'web'), { recursive: true });
  const [, , web] = await Promise.all([
    esbuild.build(serverOptions),
    esbuild.build(awsSdkOptions),
    esbuild.build(webOptions),
    esbuild.build(tunedOptions),
  ]);
  asciiServerBundle();
  writeServerLoader();
  finishWeb(web);
  await precompress(join(dist, 'web'));
  writeFileSync(stamp, new Date().toISOString());
  log(`built dist/server and dist/web in ${Date.now() - started} ms`);
}

async function watch() {
  let child = null;
  const restart = () => {
    if (child) child.kill('SIGTERM');
    child = spawn(
      process.execPath,
      ['--enable-source-maps', ...serverNodeFlags(), join(dist, 'server/main.cjs'), 'serve'],
      {
        stdio: 'inherit',
      },
    );
  };
  const notify = (name, after) => ({
    name,
    setup(b) {
      b.onEnd(async (result) => {
        if (result.errors.length) return;
        await after?.(result);
        log(`${name} rebuilt`);
        restart();
      });
    },
  });
  mkdirSync(join(dist, 'web'), { recursive: true });
  // the SDK's file changes only with node_modules: built once
  await esbuild.build(awsSdkOptions);
  const server = await esbuild.context({
    ...serverOptions,
    plugins: [...serverOptions.plugins, notify('server', writeServerLoader)],
  });
  const web = await esbuild.context({
    ...webOptions,
    plugins: [
      ...webOptions.plugins,
      notify('web', async (result) => {
        finishWeb(result);
        await precompress(join(dist, 'web'));
      }),
    ],
  });
  await Promise.all([server.watch(), web.watch()]);
  log('watching src-server and src-web for changes');
}

if (basename(process.argv[1] ?? '') === 'build.mjs') {
  if (args.has('--watch')) await watch();
  else if (args.has('--if-needed') && upToDate()) log('build is up to date');
  else await buildOnce();
}
