// Where the server's CPU goes on one request shape: the real server (dist/server/main.cjs) run
// with --cpu-prof over a seeded folder, loaded by wrk (bench/wrk.ts) for a few seconds, then
// stopped; prints the top self-time functions of its profile and the rate wrk measured.
//   node build/build.mjs && npx esbuild bench/profile.ts --bundle --platform=node --format=cjs \
//     --external:better-sqlite3 --external:argon2 --outfile=dist/bench/profile.cjs \
//     && node dist/bench/profile.cjs --data DIR --shape SHAPE [--seconds 8] [--top 25] [--entry dist-before/server/main.cjs]
// SHAPE: list (anonymous default list), listUser (the same signed in, 40 users), detail,
// detailUser (400 tasks x 40 users). The profile is kept in the printed folder for a closer look.
// With --vs-limit SHAPES (comma-separated) no profile is taken: three interleaved rounds of
// Hono + prepared SELECT (bench/limit-servers.mjs hono-sqlite) and each shape, all under wrk,
// with the ratios and the load average of each round.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_ENTRY, startServerProcess } from '../faults/server';
import { signToken } from '../src-server/features/users/token';
import NODE_FLAGS from '../src-server/node-flags.json';
import { appFixtures } from './app';
import { startLimitServer } from './limits';
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

async function requests(dataDir: string, shape: string) {
  const fixtures = appFixtures(dataDir, new Date().toISOString());
  const users = fixtures.users.slice(0, 40);
  const tokens = await Promise.all(
    users.map(async (u) => `Bearer ${await signToken(u, false, fixtures.secret, benchSessionId(u._id))}`),
  );
  const tasks = fixtures.openTasks.slice(0, 400);
  const paths = shape.startsWith('detail') ? tasks.map((t) => `/api/tasks/${t}`) : ['/api/tasks'];
  return { paths, authorizations: shape.endsWith('User') ? tokens : undefined };
}

/** CPU time (user + system) a process used so far, in ms, from /proc (0 where it is missing). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of stat(5), counted from the state (field 3) here
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

async function versusLimit(dataDir: string, shapes: string[], seconds: number, entry: string) {
  const limitDir = mkdtempSync(join(tmpdir(), 'taskreward-limit-'));
  const limit = await startLimitServer('hono-sqlite', limitDir);
  // a full-scale folder on a loaded machine can take longer than the default to open
  const server = await startServerProcess({
    dataDir,
    startTimeoutMs: 300_000,
    command: { file: process.execPath, args: [...NODE_FLAGS.server, entry, 'serve'] },
  });
  try {
    const loads = await Promise.all(shapes.map((shape) => requests(dataDir, shape)));
    // with the CPU the serving process used per request: on a machine shared with other work
    // the rates swing with the load, the CPU per request far less, and its ratio to the limit's
    // is the rate the server would reach beside it with the cores to itself
    const run = async (url: string, paths: string[], authorizations?: string[]) => {
      const pid = url === limit.url ? limit.pid : server.pid;
      const cpuBefore = cpuMs(pid);
      const r = await runWrk({ url, paths, authorizations, connections: 16, durationMs: seconds * 1000 });
      const requests = r.rps * (seconds || 1);
      return { ...r, cpuUs: ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, requests) };
    };
    await run(limit.url, ['/tasks']);
    for (const load of loads) await run(server.url, load.paths, load.authorizations);
    for (let round = 1; round <= 3; round++) {
      const base = await run(limit.url, ['/tasks']);
      const line = [
        `round ${round}: Hono + prepared SELECT ${base.rps.toFixed(0)} req/s, ${base.cpuUs.toFixed(0)} µs CPU/req (load ${loadavg()[0].toFixed(2)})`,
      ];
      for (const [i, load] of loads.entries()) {
        const r = await run(server.url, load.paths, load.authorizations);
        line.push(
          `${shapes[i]} ${r.rps.toFixed(0)} req/s = ${((r.rps / base.rps) * 100).toFixed(0)}%; ${r.cpuUs.toFixed(0)} µs CPU/req = ${((base.cpuUs / r.cpuUs) * 100).toFixed(0)}% of the limit's rate per CPU (p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(1)} ms, load ${loadavg()[0].toFixed(2)}${r.failures ? `, ${r.failures} FAILED` : ''})`,
        );
      }
      console.log(line.join('\n  '));
    }
  } finally {
    await server.stop();
    await limit.stop();
  }
}

async function main() {
  const dataDir = option('--data');
  if (!dataDir) throw new Error('--data DIR is required');
  const vs = option('--vs-limit');
  // another build of the server (an earlier commit's, to compare)
  const entry = option('--entry') ?? SERVER_ENTRY;
  if (vs) return versusLimit(dataDir, vs.split(','), Number(option('--seconds') ?? 5), entry);
  const shape = option('--shape') ?? 'listUser';
  const seconds = Number(option('--seconds') ?? 8);
  const top = Number(option('--top') ?? 25);
  const fixtures = appFixtures(dataDir, new Date().toISOString());
  const users = fixtures.users.slice(0, 40);
  const tokens = await Promise.all(
    users.map(async (u) => `Bearer ${await signToken(u, false, fixtures.secret, benchSessionId(u._id))}`),
  );
  const tasks = fixtures.openTasks.slice(0, 400);
  const signedIn = shape.endsWith('User');
  const paths = shape.startsWith('detail') ? tasks.map((t) => `/api/tasks/${t}`) : ['/api/tasks'];
  let loadStarted = performance.now();
  const profDir = mkdtempSync(join(tmpdir(), 'taskreward-prof-'));
  const server = await startServerProcess({
    dataDir,
    startTimeoutMs: 300_000,
    command: { file: process.execPath, args: [...NODE_FLAGS.server, entry, 'serve'] },
    // through the environment: the loader starts the server again with its own flags (execve)
    env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir}` },
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
    await load(2_000);
    loadStarted = performance.now();
    const before = loadavg()[0];
    const result = await load(seconds * 1000);
    console.log(
      `${shape}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
        `${result.failures} failed; load average ${before.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`,
    );
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
