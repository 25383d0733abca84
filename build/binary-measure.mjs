// Measures the single binary: its size, and how long it takes from exec to "listening on"
// (first start with an empty native-module cache, then warm starts), and a CLI command.
//   node build/binary-measure.mjs [path/to/taskreward]      (npm run measure:binary)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const exe =
  process.argv[2] ??
  join(root, 'dist/binary', process.platform === 'win32' ? 'taskreward.exe' : 'taskreward');
if (!existsSync(exe)) {
  console.error(`no binary at ${exe}: run npm run build:binary first`);
  process.exit(1);
}
const WARM_RUNS = 5;
const scratch = mkdtempSync(join(tmpdir(), 'taskreward-measure-'));
const env = {
  PATH: process.env.PATH ?? '',
  HOME: scratch,
  TASKREWARD_CACHE_DIR: join(scratch, 'cache'),
  PORT: '0',
};

/** Milliseconds from spawn to the "listening on" line; the server is stopped after. */
function startOnce(dataDir, command = exe, pre = []) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, [...pre, 'serve', '--data', dataDir], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (/listening on http:\/\/\S+:\d+/.test(out)) {
        const ms = performance.now() - started;
        child.once('exit', () => resolve(ms));
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => {
      if (!/listening on/.test(out)) reject(new Error(`the server exited with ${code}: ${out}`));
    });
  });
}

try {
  const bytes = statSync(exe).size;
  const data = join(scratch, 'data');
  const first = await startOnce(data); // also creates and migrates the database
  const warm = [];
  for (let i = 0; i < WARM_RUNS; i++) warm.push(await startOnce(data));
  warm.sort((a, b) => a - b);
  const median = warm[Math.floor(warm.length / 2)];
  const helpStarted = performance.now();
  spawnSync(exe, ['--help'], { env });
  const help = performance.now() - helpStarted;
  console.log(`binary:            ${exe}`);
  console.log(`size:              ${(bytes / 1024 / 1024).toFixed(1)} MiB (${bytes} bytes)`);
  console.log(`first start:       ${first.toFixed(0)} ms to "listening on" (empty cache, new database)`);
  console.log(
    `warm start:        ${median.toFixed(0)} ms median of ${WARM_RUNS} (min ${warm[0].toFixed(0)}, max ${warm.at(-1).toFixed(0)})`,
  );
  console.log(`--help:            ${help.toFixed(0)} ms`);
  const bundle = join(root, 'dist/server/main.cjs');
  if (existsSync(bundle)) {
    const runs = [];
    for (let i = 0; i < WARM_RUNS; i++) runs.push(await startOnce(data, process.execPath, [bundle]));
    runs.sort((a, b) => a - b);
    console.log(
      `for comparison:    ${runs[Math.floor(runs.length / 2)].toFixed(0)} ms median for node dist/server/main.cjs`,
    );
  }
  const inside = /Node\.js (v\S+)/.exec(spawnSync(exe, ['--version'], { env, encoding: 'utf8' }).stdout)?.[1];
  console.log(`machine:           ${process.platform}-${process.arch}, Node ${inside ?? '?'} inside`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
