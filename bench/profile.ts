// Where the server's CPU goes on one request shape: the real server (dist/server/main.cjs) run
// with --cpu-prof over a seeded folder, loaded by wrk (bench/wrk.ts) for a few seconds, then
// stopped; prints the top self-time functions of its profile and the rate wrk measured.
//   node build/build.mjs && npx esbuild bench/profile.ts --bundle --platform=node --format=cjs \
//     --external:better-sqlite3 --external:argon2 --external:sharp --outfile=dist/bench/profile.cjs \
//     && node dist/bench/profile.cjs --data DIR --shape SHAPE [--seconds 8] [--top 25] [--entry dist-before/server/main.cjs]
// SHAPE: list (anonymous default list), listUser (the same signed in, 40 users), detail,
// detailUser (400 tasks x 40 users), upload (the bench's 1 MB proof PNG, 2 clients of the
// bench's own client: tasks are started first, each upload sends the proof of one), searchCold (the
// bench's search that misses every cache: 900 filters around q=anket in turn, bench/app.ts
// coldSearchPaths), kinds (the list's filters and sorts in turn, the bench's "8 kinds" row),
// search (q=anket), deep (a page 90% of the way through the open tasks). The profile is kept in the printed folder for a closer look.
// With --vs-limit SHAPES (comma-separated) no profile is taken: three interleaved rounds of
// Hono + prepared SELECT (bench/limit-servers.mjs hono-sqlite) and each shape, all under wrk,
// with the ratios and the load average of each round (--node-client: under the bench's own
// client instead of wrk). --vs-limit upload instead interleaves the
// bare image pipeline (limits.ts measurePipeline, in this process) and the upload over HTTP, one
// at a time and two at once, with the CPU per image of each (the server's from /proc).
// --vs-limit SHAPES --flags-b "FLAGS[|FLAGS]": each round also serves the shapes from servers
// started with these Node flags instead of src-server/node-flags.json's, one after another, with
// each one's peak RSS after its round. --memory SHAPES [--rounds N] [--node-flags "FLAGS"]: no
// limit, the server's RSS, peak and smaps split (malloc's heap, other anonymous, files) after each
// shape's wrk round. A signed-in shape may name its workers: listUser500 is the bench's wrk row.
// With --vs-sqlite URL --shapes SHAPES: the same folder served twice, by a node on the folder's
// SQLite file and by a node on URL (a PostgreSQL database holding a copy of the folder, made by
// bench/pg-seed.ts copyToPostgres; the node gets the folder's secret as TOKEN_SECRET), three
// interleaved rounds per shape under wrk; for each, req/s and the CPU per request of the server
// side (the node, and on PostgreSQL the postmaster with all its processes), and on PostgreSQL the
// statements and round trips per request (pg_stat_statements, reset before each round: load it
// with shared_preload_libraries; BEGIN and COMMIT count as round trips).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SERVER_ENTRY, startServerProcess } from '../faults/server';
import { signToken } from '../src-server/features/users/token';
import NODE_FLAGS from '../src-server/node-flags.json';
import { appFixtures, coldSearchPaths, LIST_VARIANTS, multipart, proofPng, readVm } from './app';
import { measurePipeline, startLimitServer } from './limits';
import { type RequestSpec, runLoad, send } from './load';
import { findPostmaster, processCpuMs, threadCpuMs, threadSplit, ticksPerSecond, treeTicks } from './probes';
import { benchSessionId } from './seed';
import { runWrk } from './wrk';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time per function (name, file, line), in ms, largest first, over the last `windowMs` of
 * the profile (the load and the stop, not the start-up's own work).
 */
export function topSelf(
  profile: Profile,
  top: number,
  windowMs: number,
): { fn: string; ms: number; share: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  const stamps: number[] = [];
  let at = profile.endTime;
  for (let i = profile.samples.length - 1; i >= 0; i--) {
    stamps[i] = at;
    at -= profile.timeDeltas[i] ?? 0;
  }
  const from = profile.endTime - windowMs * 1000;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node || stamps[i] < from) return;
    const f = node.callFrame;
    const file = f.url.replace(/^.*\/(node_modules\/)?/, (m) => (m.includes('node_modules') ? 'nm:' : ''));
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, ms]) => ({ fn, ms, share: ms / total }));
}

/** A shape's paths and tokens; a signed-in shape may name its workers' count (listUser500: the bench's wrk row). */
async function requests(dataDir: string, named: string) {
  const workers = /\d+$/.exec(named);
  const shape = workers ? named.slice(0, workers.index) : named;
  const fixtures = appFixtures(dataDir, new Date().toISOString());
  const users = fixtures.users.slice(0, workers ? Number(workers[0]) : 40);
  const tokens = await Promise.all(
    users.map(async (u) => `Bearer ${await signToken(u, false, fixtures.secret, benchSessionId(u._id))}`),
  );
  const tasks = fixtures.openTasks.slice(0, 400);
  if (shape === 'deep')
    return {
      paths: [`/api/tasks?page=${Math.floor((fixtures.openTasks.length / 20) * 0.9)}`],
      authorizations: undefined,
    };
  return { paths: shapePaths(shape, tasks), authorizations: shape.endsWith('User') ? tokens : undefined };
}

/** The paths a shape sends in turn. */
function shapePaths(shape: string, tasks: string[]): string[] {
  if (shape === 'searchCold') return coldSearchPaths();
  if (shape === 'kinds') return LIST_VARIANTS;
  if (shape === 'search') return ['/api/tasks?q=anket'];
  return shape.startsWith('detail') ? tasks.map((t) => `/api/tasks/${t}`) : ['/api/tasks'];
}

/**
 * Starts `count` tasks through the API (users and tasks in turn, keeping the 201s) and returns
 * a maker of upload requests, one started task each.
 */
async function uploads(url: string, dataDir: string, count: number) {
  const fixtures = appFixtures(dataDir, new Date().toISOString());
  // a different slice of users each run: an earlier run's uploads hold the first ones' tasks
  const from = Math.floor(Math.random() * Math.max(1, fixtures.users.length - 2_000));
  const users = fixtures.users.slice(from, from + 2_000);
  const tokens = await Promise.all(
    users.map((u) => signToken(u, false, fixtures.secret, benchSessionId(u._id))),
  );
  const started: { token: string; task: string }[] = [];
  let n = 0;
  let refused = '';
  await runLoad({
    url,
    concurrency: 4,
    durationMs: 120_000,
    next: () => {
      const i = n++;
      const token = tokens[i % tokens.length];
      const task = fixtures.openTasks[(i * 7919 + Math.floor(i / tokens.length)) % fixtures.openTasks.length];
      return {
        method: 'POST',
        path: `/api/tasks/${task}/start`,
        body: '{}',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      };
    },
    onAnswer: (a, spec) => {
      if (a.status !== 201 && !refused) refused = `${a.status} ${a.body.toString().slice(0, 200)}`;
      if (a.status === 201 && started.length < count)
        started.push({ token: spec.headers?.authorization ?? '', task: spec.path.split('/')[3] });
    },
    requests: count * 3,
  });
  if (started.length < count)
    console.log(
      `only ${started.length} tasks started of ${count}${refused ? ` (first refusal: ${refused})` : ''}`,
    );
  const proof = proofPng();
  let cursor = 0;
  const next = (): RequestSpec => {
    const record = started[cursor++ % started.length];
    const form = multipart(
      { task: record.task, description: 'bench proof' },
      { field: 'proofImage', name: 'proof.png', type: 'image/png', bytes: proof.bytes },
    );
    return {
      method: 'POST',
      path: '/api/submissions',
      body: form.body,
      headers: { 'content-type': form.contentType, authorization: record.token },
    };
  };
  return { proof, next };
}

/** Uploads at `concurrency` for `ms`: per second, p50, the server's CPU per upload, failures. */
async function uploadRound(
  url: string,
  pid: number,
  next: () => RequestSpec,
  concurrency: number,
  ms: number,
) {
  let failed = 0;
  let first = '';
  const before = processCpuMs(pid);
  const threads = threadCpuMs(pid);
  const r = await runLoad({
    url,
    concurrency,
    durationMs: ms,
    next,
    onAnswer: (a) => {
      if (a.status === 201) return;
      failed++;
      first ||= `${a.status} ${a.body.toString().slice(0, 200)}`;
    },
  });
  const cpuMs = (processCpuMs(pid) - before) / Math.max(1, r.requests);
  return { ...r, cpuMs, failed, first, threads: threadSplit(threads, threadCpuMs(pid), r.requests) };
}

async function uploadVersusPipeline(dataDir: string, seconds: number, entry: string) {
  const server = await startServerProcess({
    dataDir,
    command: { file: process.execPath, args: [...NODE_FLAGS.server, entry, 'serve'] },
  });
  let proofDir = '';
  try {
    const { proof, next } = await uploads(server.url, dataDir, 60 * seconds * 2 + 200);
    // from a file, as the server reads the upload it staged
    proofDir = mkdtempSync(join(tmpdir(), 'taskreward-proof-'));
    const proofFile = join(proofDir, 'proof.png');
    writeFileSync(proofFile, proof.bytes);
    await measurePipeline(proofFile, 2, 1_000);
    await uploadRound(server.url, server.pid, next, 2, 1_000);
    await send(server.url, { path: '/api/health' });
    for (let round = 1; round <= 3; round++) {
      const line = [`round ${round}:`];
      for (const c of [1, 2]) {
        const threads = threadCpuMs(process.pid);
        const bare = await measurePipeline(proofFile, c, seconds * 1000);
        const bareThreads = threadSplit(threads, threadCpuMs(process.pid), bare.images);
        const load1 = loadavg()[0];
        const up = await uploadRound(server.url, server.pid, next, c, seconds * 1000);
        line.push(
          `c=${c} bare ${bare.perSecond.toFixed(1)}/s CPU ${bare.cpuMs.toFixed(1)} ms (load ${load1.toFixed(2)}); ` +
            `upload ${up.rps.toFixed(1)}/s p50 ${up.p50.toFixed(1)} ms CPU ${up.cpuMs.toFixed(1)} ms (load ${loadavg()[0].toFixed(2)}); ` +
            `rate ${((up.rps / bare.perSecond) * 100).toFixed(0)}%, CPU ${(up.cpuMs / bare.cpuMs).toFixed(2)}x` +
            (up.failed ? `; ${up.failed} FAILED: ${up.first}` : '') +
            `\n    CPU ms per image by thread, bare: ${bareThreads}\n    server: ${up.threads}`,
        );
      }
      console.log(line.join('\n  '));
    }
  } finally {
    if (proofDir) rmSync(proofDir, { recursive: true, force: true });
    await server.stop();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

/**
 * The time a process's main thread spent on a core and ready to run but waiting for one (ms so
 * far, /proc/PID/task/PID/schedstat; zeros where it is missing).
 */
function mainSchedStat(pid: number): { runMs: number; waitMs: number } {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return { runMs: 0, waitMs: 0 };
  }
}

async function versusLimit(
  dataDir: string,
  shapes: string[],
  seconds: number,
  entry: string,
  viaNode: boolean,
) {
  const limitDir = mkdtempSync(join(tmpdir(), 'taskreward-limit-'));
  const limit = await startLimitServer('hono-sqlite', limitDir);
  // --flags-b "FLAGS": each round also serves the shapes from a server B started with these Node
  // flags instead of src-server/node-flags.json's (both restarted every round: one server opens
  // the folder at a time), with each one's peak RSS after its round
  // ("FLAGS1|FLAGS2": a server C too)
  const flagsB = option('--flags-b')
    ?.split('|')
    .map((flags) => flags.split(' ').filter(Boolean));
  const variants = [NODE_FLAGS.server, ...(flagsB ?? [])];
  // a full-scale folder on a loaded machine can take longer than the default to open
  const start = (flags: string[]) =>
    startServerProcess({
      dataDir,
      startTimeoutMs: 300_000,
      command: { file: process.execPath, args: [...flags, entry, 'serve'] },
    });
  let server = await start(variants[0]);
  try {
    const loads = await Promise.all(shapes.map((shape) => requests(dataDir, shape)));
    const drive = async (url: string, paths: string[], authorizations?: string[]) => {
      if (!viaNode)
        return runWrk({ url, paths, authorizations, connections: 16, durationMs: seconds * 1000 });
      // the bench's own client (bench/load.ts), the other client of `npm run bench`
      const result = await runLoad({
        url,
        concurrency: 16,
        durationMs: seconds * 1000,
        next: (i) => {
          const authorization = authorizations?.[i % authorizations.length];
          const headers: Record<string, string> = authorization ? { authorization } : {};
          return { path: paths[i % paths.length], headers };
        },
      });
      const ok = Object.entries(result.statuses).reduce(
        (n, [code, k]) => n + (Number(code) < 400 ? k : 0),
        0,
      );
      return { ...result, failures: result.requests - ok };
    };
    // with the CPU the serving process used per request: on a machine shared with other work
    // the rates swing with the load, the CPU per request far less, and its ratio to the limit's
    // is the rate the server would reach beside it with the cores to itself. `busy` is the
    // server's CPU over the round's wall time (1 = one core all the time): a rate ratio below
    // the CPU ratio means the server got or took less of a core than the limit did; `threads`
    // says which of its threads spent it (main: JavaScript and SQLite; the others: V8's
    // helpers, libuv's pool), in µs per request
    const run = async (url: string, paths: string[], authorizations?: string[]) => {
      const pid = url === limit.url ? limit.pid : server.pid;
      const cpuBefore = processCpuMs(pid);
      const threads = threadCpuMs(pid);
      const sched = mainSchedStat(pid);
      const wallBefore = performance.now();
      const r = await drive(url, paths, authorizations);
      const wallMs = performance.now() - wallBefore;
      const schedAfter = mainSchedStat(pid);
      // the main thread's wall time: running, ready but waiting for a core, and asleep (its
      // event loop waiting for sockets: nothing to do)
      const running = (schedAfter.runMs - sched.runMs) / wallMs;
      const ready = (schedAfter.waitMs - sched.waitMs) / wallMs;
      const main = `main thread: running ${pct(running)}, ready for a core ${pct(ready)}, asleep ${pct(1 - running - ready)}`;
      const cpu = processCpuMs(pid) - cpuBefore;
      const after = threadCpuMs(pid);
      const split = [...after.entries()]
        .map(
          ([name, ms]) => [name, ((ms - (threads.get(name) ?? 0)) * 1000) / Math.max(1, r.requests)] as const,
        )
        .filter(([, us]) => us >= 1)
        .sort((a, b) => b[1] - a[1])
        .map(([name, us]) => `${name} ${us.toFixed(0)}`)
        .join(', ');
      return { ...r, cpuUs: (cpu * 1000) / Math.max(1, r.requests), busy: cpu / wallMs, split, main };
    };
    await run(limit.url, ['/tasks']);
    for (const load of loads) await run(server.url, load.paths, load.authorizations);
    for (let round = 1; round <= 3; round++) {
      const base = await run(limit.url, ['/tasks']);
      const line = [
        `round ${round}: Hono + prepared SELECT ${base.rps.toFixed(0)} req/s, ${base.cpuUs.toFixed(0)} µs CPU/req, busy ${base.busy.toFixed(2)} cores [${base.split}; ${base.main}] (load ${loadavg()[0].toFixed(2)})`,
      ];
      for (const [v, flags] of variants.entries()) {
        if (flagsB) {
          await server.stop();
          server = await start(flags);
          // the same warm-up as the first server's (JIT, SQLite's cache, the list cache)
          for (const load of loads) await run(server.url, load.paths, load.authorizations);
          line.push(`server ${'ABCDEF'[v]} (${flags.join(' ')}):`);
        }
        for (const [i, load] of loads.entries()) {
          const r = await run(server.url, load.paths, load.authorizations);
          line.push(
            `${shapes[i]} ${r.rps.toFixed(0)} req/s = ${((r.rps / base.rps) * 100).toFixed(0)}%; ${r.cpuUs.toFixed(0)} µs CPU/req = ${((base.cpuUs / r.cpuUs) * 100).toFixed(0)}% of the limit's rate per CPU; busy ${r.busy.toFixed(2)} cores [${r.split}; ${r.main}] (p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(1)} ms, load ${loadavg()[0].toFixed(2)}${r.failures ? `, ${r.failures} FAILED` : ''})`,
          );
        }
        if (flagsB) {
          const m = memoryOf(server.pid);
          line.push(`server ${'ABCDEF'[v]} peak RSS ${m.hwm.toFixed(0)} MB, RSS ${m.rss.toFixed(0)} MB`);
        }
      }
      console.log(line.join('\n  '));
    }
  } finally {
    await server.stop();
    await limit.stop();
  }
}

/** Statements PostgreSQL ran since the last reset, per text (pg_stat_statements), the bench's own left out. */
async function statementCounts(admin: pg.Client): Promise<{ calls: number; query: string; us: number }[]> {
  const { rows } = await admin.query<{ calls: string; query: string; total: number }>(
    `SELECT calls::text, query, total_exec_time AS total FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC`,
  );
  return rows.map((r) => ({
    calls: Number(r.calls),
    query: r.query,
    us: (r.total * 1000) / Number(r.calls),
  }));
}

async function versusSqlite(dataDir: string, url: string, shapes: string[], seconds: number, entry: string) {
  const fixtures = appFixtures(dataDir, new Date().toISOString());
  const command = { file: process.execPath, args: [...NODE_FLAGS.server, entry, 'serve'] };
  const sqlite = await startServerProcess({ dataDir, startTimeoutMs: 300_000, command });
  const nodeDir = mkdtempSync(join(tmpdir(), 'taskreward-pg-node-'));
  const postgres = await startServerProcess({
    dataDir: nodeDir,
    startTimeoutMs: 300_000,
    command,
    env: { DATABASE_URL: url, TOKEN_SECRET: new TextDecoder().decode(fixtures.secret) },
  });
  const postmaster = await findPostmaster(url);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const tick = 1000 / ticksPerSecond();
  try {
    const loads = await Promise.all(shapes.map((shape) => requests(dataDir, shape)));
    const run = async (server: typeof sqlite, load: (typeof loads)[number], ms: number) => {
      const onPg = server === postgres;
      const nodeBefore = processCpuMs(server.pid);
      const pgBefore = onPg && postmaster ? treeTicks(postmaster) : 0;
      if (onPg) await admin.query('SELECT pg_stat_statements_reset()');
      const r = await runWrk({
        url: server.url,
        paths: load.paths,
        authorizations: load.authorizations,
        connections: 16,
        durationMs: ms,
      });
      const requests = Math.max(1, r.rps * (ms / 1000));
      const nodeUs = ((processCpuMs(server.pid) - nodeBefore) * 1000) / requests;
      const pgUs = onPg && postmaster ? ((treeTicks(postmaster) - pgBefore) * tick * 1000) / requests : 0;
      const statements = onPg ? await statementCounts(admin) : [];
      return { ...r, requests, nodeUs, pgUs, statements };
    };
    for (const load of loads) {
      await run(sqlite, load, 2_000);
      await run(postgres, load, 2_000);
    }
    for (const [i, shape] of shapes.entries()) {
      for (let round = 1; round <= 3; round++) {
        const a = await run(sqlite, loads[i], seconds * 1000);
        const b = await run(postgres, loads[i], seconds * 1000);
        const perCpuA = 1e6 / a.nodeUs;
        const perCpuB = 1e6 / (b.nodeUs + b.pgUs);
        const calls = b.statements.reduce((n, x) => n + x.calls, 0);
        console.log(
          `${shape} round ${round}: SQLite ${a.rps.toFixed(0)} req/s, ${a.nodeUs.toFixed(0)} µs CPU/req; ` +
            `PostgreSQL ${b.rps.toFixed(0)} req/s, ${b.nodeUs.toFixed(0)} + ${b.pgUs.toFixed(0)} µs CPU/req (node + PostgreSQL), ` +
            `${(calls / b.requests).toFixed(2)} statements/req; PG/SQLite ${(b.rps / a.rps).toFixed(2)}x req/s, ` +
            `${(perCpuB / perCpuA).toFixed(2)}x req per CPU-second (load ${loadavg()[0].toFixed(2)}${a.failures + b.failures ? `, ${a.failures + b.failures} FAILED` : ''})`,
        );
        if (round === 1)
          for (const x of b.statements.slice(0, 8))
            console.log(
              `    ${(x.calls / b.requests).toFixed(2)}/req ${x.us.toFixed(0)} µs  ${x.query.replace(/\s+/g, ' ').slice(0, 150)}`,
            );
      }
    }
  } finally {
    await admin.end();
    await postgres.stop();
    await sqlite.stop();
    rmSync(nodeDir, { recursive: true, force: true });
  }
}

/**
 * The server's memory from /proc: VmRSS, VmHWM (the peak so far), and smaps split into the
 * anonymous memory of malloc's main heap (brk: SQLite's page cache, most of what C code keeps),
 * the other anonymous mappings (V8's heap pages, malloc's blocks of 128 KiB and more, thread
 * stacks) and file-backed pages (the node binary's code, the native addons), in MB.
 */
export function memoryOf(pid: number): {
  rss: number;
  hwm: number;
  heap: number;
  anon: number;
  file: number;
} {
  let heap = 0;
  let anon = 0;
  let file = 0;
  let kind: 'heap' | 'anon' | 'file' = 'anon';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      kind = head[2] === '[heap]' ? 'heap' : head[1] !== '0' ? 'file' : 'anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    const mb = Number(rss[1]) / 1024;
    if (kind === 'heap') heap += mb;
    else if (kind === 'file') file += mb;
    else anon += mb;
  }
  return { rss: readVm(pid, 'VmRSS') / 1048576, hwm: readVm(pid, 'VmHWM') / 1048576, heap, anon, file };
}

/**
 * --memory SHAPES: the server's memory after each shape's wrk round (as the bench's wrk rows
 * send them, 16 connections), `--rounds N` times over the shapes, with the rate; --node-flags
 * "..." starts it with other Node flags than src-server/node-flags.json's (to compare).
 */
async function memoryRounds(dataDir: string, shapes: string[], seconds: number, entry: string) {
  const flags = option('--node-flags')?.split(' ').filter(Boolean) ?? NODE_FLAGS.server;
  const server = await startServerProcess({
    dataDir,
    startTimeoutMs: 300_000,
    command: { file: process.execPath, args: [...flags, entry, 'serve'] },
  });
  const show = (label: string) => {
    const m = memoryOf(server.pid);
    console.log(
      `${label.padEnd(28)} rss ${m.rss.toFixed(0)} MB, peak ${m.hwm.toFixed(0)} MB ` +
        `(malloc heap ${m.heap.toFixed(0)}, other anonymous ${m.anon.toFixed(0)}, file ${m.file.toFixed(0)}); load ${loadavg()[0].toFixed(2)}`,
    );
  };
  try {
    console.log(`node flags: ${flags.join(' ')}`);
    show('after start');
    const loads = await Promise.all(
      shapes.map(async (shape) => ({ shape, ...(await requests(dataDir, shape)) })),
    );
    const rounds = Number(option('--rounds') ?? 1);
    for (let round = 1; round <= rounds; round++)
      for (const { shape, paths, authorizations } of loads) {
        const r = await runWrk({
          url: server.url,
          paths,
          authorizations,
          connections: 16,
          durationMs: seconds * 1000,
        });
        show(`${shape} ${r.rps.toFixed(0)} req/s`);
      }
  } finally {
    await server.stop();
  }
}

async function main() {
  const dataDir = option('--data');
  if (!dataDir) throw new Error('--data DIR is required');
  const vsSqlite = option('--vs-sqlite');
  if (vsSqlite)
    return versusSqlite(
      dataDir,
      vsSqlite,
      (option('--shapes') ?? 'list,listUser,detail,detailUser').split(','),
      Number(option('--seconds') ?? 5),
      option('--entry') ?? SERVER_ENTRY,
    );
  const memory = option('--memory');
  if (memory)
    return memoryRounds(
      dataDir,
      memory.split(','),
      Number(option('--seconds') ?? 5),
      option('--entry') ?? SERVER_ENTRY,
    );
  const vs = option('--vs-limit');
  // another build of the server (an earlier commit's, to compare)
  const entry = option('--entry') ?? SERVER_ENTRY;
  if (vs === 'upload') return uploadVersusPipeline(dataDir, Number(option('--seconds') ?? 5), entry);
  if (vs)
    return versusLimit(
      dataDir,
      vs.split(','),
      Number(option('--seconds') ?? 5),
      entry,
      args.includes('--node-client'),
    );
  const shape = option('--shape') ?? 'listUser';
  const seconds = Number(option('--seconds') ?? 8);
  const top = Number(option('--top') ?? 25);
  const fixtures = appFixtures(dataDir, new Date().toISOString());
  // --users N: signed-in shapes as N workers (40 by default; thousands: each request a worker
  // whose reads nobody remembered, as the bench's own client sends them)
  const users = fixtures.users.slice(0, Number(option('--users') ?? 40));
  const tokens = await Promise.all(
    users.map(async (u) => `Bearer ${await signToken(u, false, fixtures.secret, benchSessionId(u._id))}`),
  );
  const tasks = fixtures.openTasks.slice(0, 400);
  const signedIn = shape.endsWith('User');
  const paths = shapePaths(shape, tasks);
  let loadStarted = performance.now();
  const profDir = mkdtempSync(join(tmpdir(), 'taskreward-prof-'));
  // --postgres URL: the node serves a PostgreSQL copy of the folder instead (see --vs-sqlite)
  const postgresUrl = option('--postgres');
  const server = await startServerProcess({
    dataDir: postgresUrl ? mkdtempSync(join(tmpdir(), 'taskreward-pg-node-')) : dataDir,
    startTimeoutMs: 300_000,
    command: { file: process.execPath, args: [...NODE_FLAGS.server, entry, 'serve'] },
    // through the environment: the loader starts the server again with its own flags (execve)
    // PROFILE_NODE_OPTIONS: more for the profiled server (a preload that times statements, say)
    env: {
      NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir} ${process.env.PROFILE_NODE_OPTIONS ?? ''}`,
      ...(postgresUrl && {
        DATABASE_URL: postgresUrl,
        TOKEN_SECRET: new TextDecoder().decode(fixtures.secret),
      }),
    },
  });
  try {
    // warm-up (JIT, SQLite's cache, the list cache), then the measured run
    const load = (durationMs: number) =>
      runWrk({
        url: server.url,
        paths,
        authorizations: signedIn ? tokens : undefined,
        connections: 16,
        durationMs,
      });
    if (shape === 'upload') {
      const { next } = await uploads(server.url, dataDir, 40 * seconds + 200);
      await uploadRound(server.url, server.pid, next, 2, 2_000);
      loadStarted = performance.now();
      const before = loadavg()[0];
      const r = await uploadRound(server.url, server.pid, next, 2, seconds * 1000);
      console.log(
        `upload: ${r.rps.toFixed(1)}/s, p50 ${r.p50.toFixed(1)} ms, server CPU ${r.cpuMs.toFixed(1)} ms per upload, ` +
          `${r.failed} failed${r.first ? ` (${r.first})` : ''}; load average ${before.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`,
      );
    } else {
      await load(2_000);
      loadStarted = performance.now();
      const before = loadavg()[0];
      const result = await load(seconds * 1000);
      console.log(
        `${shape}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
          `${result.failures} failed; load average ${before.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`,
      );
    }
  } finally {
    await server.stop();
  }
  const windowMs = performance.now() - loadStarted;
  // the largest profile is the server's (the loader's, if any, is tiny)
  const file = readdirSync(profDir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(profDir, b)).size - statSync(join(profDir, a)).size)[0];
  if (!file) throw new Error(`no profile written in ${profDir}`);
  const profile = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as Profile;
  console.log(
    `profile: ${join(profDir, file)} (self time over the measured load's ${(windowMs / 1000).toFixed(1)} s)`,
  );
  for (const row of topSelf(profile, top, windowMs))
    console.log(
      `${(row.share * 100).toFixed(1).padStart(5)}%  ${row.ms.toFixed(0).padStart(6)} ms  ${row.fn}`,
    );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
