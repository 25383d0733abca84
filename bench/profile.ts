// Where the server's CPU goes on one request shape: the real server (dist/server/main.cjs) run
// with --cpu-prof over a seeded folder, loaded by wrk (bench/wrk.ts) for a few seconds, then
// stopped; prints the top self-time functions of its profile and the rate wrk measured.
//   node build/build.mjs && npx esbuild bench/profile.ts --bundle --platform=node --format=cjs \
//     --external:better-sqlite3 --external:argon2 --outfile=dist/bench/profile.cjs \
//     && node dist/bench/profile.cjs --data DIR --shape SHAPE [--seconds 8] [--top 25] [--entry dist-before/server/main.cjs]
// SHAPE: list (anonymous default list), listUser (the same signed in, 40 users), detail,
// detailUser (400 tasks x 40 users); the writes approve (the admin approving seeded pending
// proofs), start (seeded workers starting tasks they have not started) and withdraw (20 TL
// withdrawal requests of workers who hold that much), each a different item every request, as
// in bench/app.ts, at 4 clients of the bench's own client (bench/load.ts: wrk sends no bodies
// here). The profile is kept in the printed folder for a closer look.
// With --vs-limit SHAPES (comma-separated) no profile is taken: three interleaved rounds of
// Hono + prepared SELECT (bench/limit-servers.mjs hono-sqlite) and each shape, all under wrk,
// with the ratios and the load average of each round.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, SERVER_ENTRY, startServerProcess } from '../faults/server';
import { signToken } from '../src-server/features/users/token';
import NODE_FLAGS from '../src-server/node-flags.json';
import { appFixtures } from './app';
import { startLimitServer } from './limits';
import { type RequestSpec, runLoad, send } from './load';
import { benchSessionId, type SeedScale, taskStride } from './seed';
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

const WRITE_SHAPES = ['approve', 'start', 'withdraw'];

/** utime + stime of a process, in clock ticks (10 ms on Linux); 0 when it is gone. */
function cpuTicks(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

const json = (method: string, path: string, body: unknown, token: string): RequestSpec => ({
  method,
  path,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
});

/** The requests of a write shape, each on an item not used before (bench/app.ts's rules). */
async function writeRequests(
  dataDir: string,
  fixtures: ReturnType<typeof appFixtures>,
  shape: string,
  url: string,
): Promise<() => RequestSpec> {
  const seedFile = join(dataDir, 'bench-seed.json');
  const scale = existsSync(seedFile)
    ? (JSON.parse(readFileSync(seedFile, 'utf8')) as { scale: SeedScale }).scale
    : { users: 100_000, tasks: 10_000, submissions: 1_000_000, withdrawals: 200_000 };
  const indexOf = (id: string) => Number.parseInt(id.slice(1), 16);
  const users = await Promise.all(
    fixtures.users.map(async (u) => ({
      index: indexOf(u._id),
      row: u,
      token: await signToken(u, false, fixtures.secret, benchSessionId(u._id)),
    })),
  );
  let n = 0;
  if (shape === 'approve') {
    const login = await send(url, {
      method: 'POST',
      path: '/api/auth/login',
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
      headers: { 'content-type': 'application/json' },
    });
    const token = (JSON.parse(login.body.toString()) as { token: string }).token;
    // from the end of the list: a bench run that used some takes them from the start
    const pending = fixtures.pending;
    return () =>
      json(
        'PUT',
        `/api/submissions/${pending[pending.length - 1 - (n++ % pending.length)]}/review`,
        {
          status: 'approved',
          feedback: 'ok',
        },
        token,
      );
  }
  if (shape === 'start') {
    // bench/app.ts's pairs, past those earlier runs started
    const stride = taskStride(scale);
    const tasks = fixtures.openTasks;
    const used = new Set<string>();
    n = fixtures.startedEarlier > 0 ? Math.ceil(fixtures.startedEarlier * 1.01) + 1_000 : 0;
    return () => {
      for (;;) {
        const k = n++;
        const user = users[k % users.length];
        const taskId = tasks[(k * 7919 + Math.floor(k / users.length)) % tasks.length];
        const key = `${user.index}:${taskId}`;
        if (indexOf(taskId) % stride === user.index % stride || used.has(key)) continue;
        used.add(key);
        return json('POST', `/api/tasks/${taskId}/start`, {}, user.token);
      }
    };
  }
  const payers = users.filter((u) => u.row.balance >= 2_000);
  return () => {
    const user = payers[(n++ * 31) % payers.length];
    return json(
      'POST',
      '/api/withdraws',
      {
        amount: 20,
        paymentMethod: 'papara',
        accountDetails: { fullName: user.row.name, accountNumber: String(1_000_000_000 + user.index) },
      },
      user.token,
    );
  };
}

async function versusLimit(dataDir: string, shapes: string[], seconds: number) {
  const limitDir = mkdtempSync(join(tmpdir(), 'taskreward-limit-'));
  const limit = await startLimitServer('hono-sqlite', limitDir);
  const server = await startServerProcess({ dataDir });
  try {
    const loads = await Promise.all(shapes.map((shape) => requests(dataDir, shape)));
    const run = (url: string, paths: string[], authorizations?: string[]) =>
      runWrk({ url, paths, authorizations, connections: 16, durationMs: seconds * 1000 });
    await run(limit.url, ['/tasks']);
    for (const load of loads) await run(server.url, load.paths, load.authorizations);
    for (let round = 1; round <= 3; round++) {
      const base = await run(limit.url, ['/tasks']);
      const line = [
        `round ${round}: Hono + prepared SELECT ${base.rps.toFixed(0)} req/s (load ${loadavg()[0].toFixed(2)})`,
      ];
      for (const [i, load] of loads.entries()) {
        const r = await run(server.url, load.paths, load.authorizations);
        line.push(
          `${shapes[i]} ${r.rps.toFixed(0)} req/s = ${((r.rps / base.rps) * 100).toFixed(0)}% (p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(1)} ms, load ${loadavg()[0].toFixed(2)}${r.failures ? `, ${r.failures} FAILED` : ''})`,
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
  if (vs) return versusLimit(dataDir, vs.split(','), Number(option('--seconds') ?? 5));
  const shape = option('--shape') ?? 'listUser';
  const seconds = Number(option('--seconds') ?? 8);
  const top = Number(option('--top') ?? 25);
  // another build of the server (an earlier commit's, to compare)
  const entry = option('--entry') ?? SERVER_ENTRY;
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
    command: { file: process.execPath, args: [...NODE_FLAGS.server, entry, 'serve'] },
    // through the environment: the loader starts the server again with its own flags (execve)
    env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir}` },
  });
  try {
    if (WRITE_SHAPES.includes(shape)) {
      const next = await writeRequests(dataDir, fixtures, shape, server.url);
      const expect = shape === 'approve' ? 200 : 201;
      let failures = 0;
      let first = '';
      const load = (durationMs: number) =>
        runLoad({
          url: server.url,
          concurrency: 4,
          durationMs,
          next: () => next(),
          onAnswer: (a) => {
            if (a.status === expect) return;
            failures++;
            first ||= `${a.status} ${a.body.toString().slice(0, 200)}`;
          },
        });
      await load(2_000);
      loadStarted = performance.now();
      const before = loadavg()[0];
      // the server's own CPU (user + system, /proc), per request: steadier than req/s on a loaded machine
      const cpu0 = cpuTicks(server.pid);
      const result = await load(seconds * 1000);
      const cpuMs = ((cpuTicks(server.pid) - cpu0) * 10) / Math.max(1, result.requests);
      console.log(
        `${shape}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
          `server CPU ${cpuMs.toFixed(2)} ms per request, ` +
          `${failures} failed${first ? ` (${first})` : ''}; load average ${before.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`,
      );
    } else {
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
