// Start-up: milliseconds from spawning the server to the first 200 answer of GET /api/settings
// (a database read through the whole app), polled every 2 ms on a port picked in advance, so
// nothing waits on the log. For `node dist/server/main.cjs serve` and for the single binary,
// over an already-migrated data folder (the median of several runs), and once over an empty one.
//   node dist/bench/startup.cjs [--quick]   (or through bench/run.ts)
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MALLOC_TUNABLE, TUNED_MARK } from '../src-server/cli/malloc-tunables';
import NODE_FLAGS from '../src-server/node-flags.json';
import { median } from './load';

export interface StartupRuns {
  /** Median of `runs`, ms to the first 200, over a migrated data folder. */
  median: number;
  runs: number[];
  /** The first start over an empty data folder (creates and migrates the database). */
  first?: number;
  /** CPU ms each warm start used up to its first answer (Linux), and their median. */
  cpu?: number[];
  cpuMedian?: number;
}

export interface Startup {
  bundle: StartupRuns;
  /**
   * The bundle started with glibc's malloc tunables already in its environment (as a launcher
   * that sets them would start it): no restart of itself, so the difference is the restart's cost.
   */
  bundleTuned: StartupRuns;
  /**
   * The limit, measured in turns with the bundle: a bare Node process (the server's flags) that
   * loads Hono and better-sqlite3, opens a SQLite file and answers 20 rows by one prepared SELECT
   * (bench/limit-servers.mjs hono-sqlite): what any Node server on SQLite pays on this machine.
   */
  limit: StartupRuns;
  /** `node -e 0`, spawn to exit: the machine's own cost of starting Node once. */
  nodeAlone: StartupRuns;
  binary: (StartupRuns & { path: string }) | null;
}

export interface StartupOptions {
  quick?: boolean;
  /** Warm starts per command (default 7; quick: 3). */
  runs?: number;
}

export const BUNDLE = resolve('dist/server/main.cjs');
export const BINARY = resolve('dist/binary', process.platform === 'win32' ? 'taskreward.exe' : 'taskreward');
const POLL_MS = 2;
const TIMEOUT_MS = 30_000;

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** One GET on a fresh connection: the status, or 0 when nothing answered (refused, reset). */
function probe(url: string): Promise<number> {
  return new Promise((resolveStatus) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolveStatus(res.statusCode ?? 0));
      res.on('error', () => resolveStatus(0));
    });
    req.on('error', () => resolveStatus(0));
    req.setTimeout(TIMEOUT_MS, () => req.destroy());
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The CPU time (user + system, ms) a process has used so far, from /proc (Linux; null elsewhere):
 * on a busy machine the wall time of a start swings with the other processes, its CPU much less.
 * The malloc restart keeps the pid (execve), so this counts both starts of the bundle.
 */
function cpuOf(pid: number | undefined): number | null {
  if (pid === undefined || process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are the 14th and 15th fields, in clock ticks (100 per second on Linux)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Spawns the command as given, polls `path` until the first 200, stops it; ms from spawn to that answer. */
async function startOnce(
  file: string,
  args: string[],
  dataDir: string,
  env: NodeJS.ProcessEnv,
  path = '/api/settings',
) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${path}`;
  const started = performance.now();
  const child: ChildProcess = spawn(file, args, {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  let ended = '';
  const exited = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      ended = signal ? `signal ${signal}` : `code ${code}`;
      r();
    }),
  );
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  try {
    for (;;) {
      const status = await probe(url);
      if (status === 200) return { ms: performance.now() - started, cpu: cpuOf(child.pid) };
      if (gone) throw new Error(`${file} ${args.join(' ')} exited (${ended}) before answering:\n${output}`);
      if (status !== 0) throw new Error(`${file}: GET ${path} answered ${status}:\n${output}`);
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`${file} did not answer:\n${output}`);
      await sleep(POLL_MS);
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  }
}

interface Start {
  ms: number;
  cpu: number | null;
}

/** Warm starts as StartupRuns: their wall times, and their CPU times where /proc gives them. */
function runsOf(starts: Start[], first?: Start): StartupRuns {
  const times = starts.map((s) => s.ms);
  const cpu = starts.map((s) => s.cpu).filter((c): c is number => c !== null);
  return {
    median: median(times),
    runs: times,
    first: first?.ms,
    ...(cpu.length === starts.length && cpu.length > 0 ? { cpu, cpuMedian: median(cpu) } : {}),
  };
}

async function measure(file: string, pre: string[], runs: number, env: NodeJS.ProcessEnv) {
  const dataDir = mkdtempSync(join(tmpdir(), 'taskreward-startup-'));
  try {
    const args = [...pre, 'serve'];
    const first = await startOnce(file, args, dataDir, env);
    const starts: Start[] = [];
    for (let i = 0; i < runs; i++) starts.push(await startOnce(file, args, dataDir, env));
    return runsOf(starts, first);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** ms from spawn to exit of `node -e 0`. */
function nodeAloneOnce(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolveMs, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolveMs(performance.now() - started));
  });
}

const LIMIT_SERVER = resolve('bench/limit-servers.mjs');
// what the server's restart of itself sets (src-server/cli/malloc-tunables.ts), set beforehand
const MALLOC_ENV = { GLIBC_TUNABLES: MALLOC_TUNABLE, [TUNED_MARK]: '1' };

/**
 * The bundle, the bundle with the tunables in its environment, the limit and Node alone, in
 * turns (one of each per round), so a busy moment of the machine falls on all four alike.
 */
async function measureBundleAndLimits(runs: number, env: NodeJS.ProcessEnv) {
  const dataDir = mkdtempSync(join(tmpdir(), 'taskreward-startup-'));
  const limitDir = mkdtempSync(join(tmpdir(), 'taskreward-startup-limit-'));
  const bundleArgs = [...NODE_FLAGS.server, BUNDLE, 'serve'];
  const limitArgs = [...NODE_FLAGS.server, LIMIT_SERVER, 'hono-sqlite', limitDir];
  const tunedEnv = { ...env, ...MALLOC_ENV };
  try {
    const first = await startOnce(process.execPath, bundleArgs, dataDir, env);
    // the limit's first start creates its table; the turns below open it, as the bundle's do
    const limitFirst = await startOnce(process.execPath, limitArgs, limitDir, env, '/tasks');
    const starts = { bundle: [] as Start[], tuned: [] as Start[], limit: [] as Start[], node: [] as Start[] };
    for (let i = 0; i < runs; i++) {
      starts.bundle.push(await startOnce(process.execPath, bundleArgs, dataDir, env));
      starts.tuned.push(await startOnce(process.execPath, bundleArgs, dataDir, tunedEnv));
      starts.limit.push(await startOnce(process.execPath, limitArgs, limitDir, env, '/tasks'));
      starts.node.push({ ms: await nodeAloneOnce(env), cpu: null });
    }
    return {
      bundle: runsOf(starts.bundle, first),
      bundleTuned: runsOf(starts.tuned),
      limit: runsOf(starts.limit, limitFirst),
      nodeAlone: runsOf(starts.node),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(limitDir, { recursive: true, force: true });
  }
}

export async function measureStartup(opts: StartupOptions = {}): Promise<Startup> {
  const runs = opts.runs ?? (opts.quick ? 3 : 7);
  const scratch = mkdtempSync(join(tmpdir(), 'taskreward-startup-home-'));
  // a plain environment: no first admin (hashing its password is a first-start cost only)
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: scratch,
    TASKREWARD_CACHE_DIR: join(scratch, 'cache'),
  };
  try {
    if (!existsSync(BUNDLE)) throw new Error(`no ${BUNDLE}: run node build/build.mjs first`);
    // with the server's Node flags, as npm start runs it: V8 rejects a code cache written under
    // other flags (the servers of the scenarios before write the bundle's), so without them every
    // start here compiled the bundle afresh
    const measured = await measureBundleAndLimits(runs, env);
    let binary: Startup['binary'] = null;
    if (!existsSync(BINARY)) {
      const built = spawnSync(process.execPath, ['build/binary.mjs'], { stdio: 'inherit' });
      if (built.status !== 0) console.error('the single binary could not be built; skipping it');
    }
    // the first run also unpacks the native modules into the (empty) cache folder
    if (existsSync(BINARY)) binary = { ...(await measure(BINARY, [], runs, env)), path: BINARY };
    return { ...measured, binary };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const fmt = (r: StartupRuns) =>
  `median ${r.median.toFixed(0)} ms of ${r.runs.length} (${r.runs.map((t) => t.toFixed(0)).join(', ')})` +
  (r.cpuMedian === undefined ? '' : `, CPU ${r.cpuMedian.toFixed(0)} ms`) +
  (r.first === undefined ? '' : `; first start on an empty folder ${r.first.toFixed(0)} ms`);

export function formatStartup(s: Startup): string {
  return [
    `bundle (node dist/server/main.cjs serve): ${fmt(s.bundle)}`,
    `bundle, malloc tunables already in the environment (no restart): ${fmt(s.bundleTuned)}`,
    `limit (bare Node + Hono + better-sqlite3, one prepared SELECT): ${fmt(s.limit)}`,
    `Node alone (node -e 0, spawn to exit): ${fmt(s.nodeAlone)}`,
    `bundle / limit: ${(s.bundle.median / s.limit.median).toFixed(2)}x; without the restart ${(s.bundleTuned.median / s.limit.median).toFixed(2)}x` +
      (s.bundle.cpuMedian && s.limit.cpuMedian && s.bundleTuned.cpuMedian
        ? `; by CPU ${(s.bundle.cpuMedian / s.limit.cpuMedian).toFixed(2)}x and ${(s.bundleTuned.cpuMedian / s.limit.cpuMedian).toFixed(2)}x`
        : ''),
    s.binary ? `single binary (${s.binary.path}): ${fmt(s.binary)}` : 'single binary: not built',
  ].join('\n');
}

if (/startup\.(c?js|ts)$/.test(process.argv[1] ?? '')) {
  measureStartup({ quick: process.argv.includes('--quick') }).then(
    (s) => console.log(formatStartup(s)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
