// Where the server's CPU goes on one request shape: the real server (dist/server/main.cjs) run
// with --cpu-prof over a seeded folder, loaded by wrk (bench/wrk.ts) for a few seconds, then
// stopped; prints the top self-time functions of its profile and the rate wrk measured.
//   node build/build.mjs && npx esbuild bench/profile.ts --bundle --platform=node --format=cjs \
//     --external:better-sqlite3 --external:argon2 --outfile=dist/bench/profile.cjs \
//     && node dist/bench/profile.cjs --data DIR --shape SHAPE [--seconds 8] [--top 25] [--entry dist-before/server/main.cjs]
// SHAPE: list (anonymous default list), listUser (the same signed in, 40 users), detail,
// detailUser (400 tasks x 40 users), searchCold (the bench's search that misses every cache: 900
// filters around q=anket in turn). The profile is kept in the printed folder for a closer look.
// With --vs-limit SHAPES (comma-separated) no profile is taken: three interleaved rounds of
// Hono + prepared SELECT (bench/limit-servers.mjs hono-sqlite) and each shape, all under wrk,
// with the ratios and the load average of each round; with --node-client, under the bench's own
// client instead of wrk. --entry picks the server build for either.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_ENTRY, startServerProcess } from '../faults/server';
import { signToken } from '../src-server/features/users/token';
import NODE_FLAGS from '../src-server/node-flags.json';
import { appFixtures, coldSearchPaths } from './app';
import { startLimitServer } from './limits';
import { runLoad } from './load';
import { procStat, ticksPerSecond } from './probes';
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
  return { paths: shapePaths(shape, tasks), authorizations: shape.endsWith('User') ? tokens : undefined };
}

/** The paths a shape sends in turn. */
function shapePaths(shape: string, tasks: string[]): string[] {
  if (shape === 'searchCold') return coldSearchPaths();
  return shape.startsWith('detail') ? tasks.map((t) => `/api/tasks/${t}`) : ['/api/tasks'];
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
  const server = await startServerProcess({
    dataDir,
    command: { file: process.execPath, args: [...NODE_FLAGS.server, entry, 'serve'] },
    // a folder just copied is read from disk at the first start: on a loaded machine that took 30 s
    startTimeoutMs: 180_000,
  });
  try {
    const loads = await Promise.all(shapes.map((shape) => requests(dataDir, shape)));
    // the server's own CPU time per request: on a machine shared with other work the rate
    // swings with the load, the CPU a request costs much less
    const run = async (url: string, paths: string[], authorizations?: string[]) => {
      const pid = url === limit.url ? limit.pid : server.pid;
      const before = procStat(pid)?.own ?? 0;
      const result = await send(url, paths, authorizations);
      const ticks = (procStat(pid)?.own ?? 0) - before;
      return { ...result, cpuMs: ((ticks / ticksPerSecond()) * 1000) / Math.max(1, result.requests) };
    };
    const send = async (url: string, paths: string[], authorizations?: string[]) => {
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
    await run(limit.url, ['/tasks']);
    for (const load of loads) await run(server.url, load.paths, load.authorizations);
    for (let round = 1; round <= 3; round++) {
      const base = await run(limit.url, ['/tasks']);
      const line = [
        `round ${round}: Hono + prepared SELECT ${base.rps.toFixed(0)} req/s, CPU ${base.cpuMs.toFixed(3)} ms/req (load ${loadavg()[0].toFixed(2)})`,
      ];
      for (const [i, load] of loads.entries()) {
        const r = await run(server.url, load.paths, load.authorizations);
        line.push(
          `${shapes[i]} ${r.rps.toFixed(0)} req/s = ${((r.rps / base.rps) * 100).toFixed(0)}%, CPU ${r.cpuMs.toFixed(3)} ms/req = ${((base.cpuMs / r.cpuMs) * 100).toFixed(0)}% (p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(1)} ms, load ${loadavg()[0].toFixed(2)}${r.failures ? `, ${r.failures} FAILED` : ''})`,
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
  // another build of the server (an earlier commit's, to compare)
  const entry = option('--entry') ?? SERVER_ENTRY;
  const vs = option('--vs-limit');
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
  const users = fixtures.users.slice(0, 40);
  const tokens = await Promise.all(
    users.map(async (u) => `Bearer ${await signToken(u, false, fixtures.secret, benchSessionId(u._id))}`),
  );
  const tasks = fixtures.openTasks.slice(0, 400);
  const signedIn = shape.endsWith('User');
  const paths = shapePaths(shape, tasks);
  let loadStarted = performance.now();
  const profDir = mkdtempSync(join(tmpdir(), 'taskreward-prof-'));
  const server = await startServerProcess({
    dataDir,
    command: { file: process.execPath, args: [...NODE_FLAGS.server, entry, 'serve'] },
    // through the environment: the loader starts the server again with its own flags (execve)
    env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir}` },
    startTimeoutMs: 180_000,
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
