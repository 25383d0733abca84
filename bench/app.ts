// The application half of `npm run bench`: the real server (dist/server/main.cjs, a child
// process) over a seeded data folder, measured over HTTP with the closed-loop generator of
// bench/load.ts. Each scenario runs a short warm-up, then several rounds; the reported figure
// is the median over the rounds of the throughput, p50 and p99.
//
// Tokens: the admin and the login scenario sign in through the API (argon2 included); the
// many users the write scenarios need get tokens signed with the folder's own secret by the
// server's token code, so setting them up costs no argon2 hashing.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PNG } from 'pngjs';
import { ADMIN, freshDataDir, type ServerProcess, startServerProcess } from '../faults/server';
import { CATEGORIES, DIFFICULTIES, REWARD_RANGES, TASK_SORTS } from '../src-server/contract/constants';
import { signToken } from '../src-server/features/users/token';
import type { UserRow } from '../src-server/features/users/users.repository';
import { measurePipeline, medianPipeline, type PipelineResult } from './limits';
import { type Answer, type LoadResult, type RequestSpec, rounds, runLoad, send } from './load';
import { type CpuProbe, type CpuSplit, processCpuMs, type WaitProfile, type WaitSampler } from './probes';
import { benchSessionId, SEED_PASSWORD, type SeedScale, taskStride } from './seed';
import { type WrkResult, wrkRounds, wrkVersion } from './wrk';

/** The list screen's filters and sorts, sent in turn (the bench's "8 kinds"); a text search is a row of its own. */
export const LIST_VARIANTS = [
  '/api/tasks?sort=highest_reward',
  `/api/tasks?category=${CATEGORIES[4]}&rewardRange=${REWARD_RANGES[2]}`,
  '/api/tasks?difficulty=easy&sort=most_popular',
  '/api/tasks?sort=quickest&page=3',
  `/api/tasks?category=${CATEGORIES[1]}&sort=lowest_reward`,
  '/api/tasks?sort=oldest&page=2',
  '/api/tasks?rewardRange=50%2B&sort=newest',
  `/api/tasks?difficulty=hard&category=${CATEGORIES[7]}`,
];

/**
 * The paths of the search that misses every cache, in the order they are sent: the list keeps a
 * filter's ids for up to 2 s and 200 searches at most (least recently used first out), so 900
 * different filters around q=anket, sent in turn, each stride 7 (prime to 900), miss every time:
 * the figure is the search itself, not the cache.
 */
export function coldSearchPaths(): string[] {
  const paths = CATEGORIES.flatMap((category) =>
    DIFFICULTIES.flatMap((difficulty) =>
      TASK_SORTS.flatMap((sort) =>
        ['', ...REWARD_RANGES].map(
          (range) =>
            `/api/tasks?q=anket&category=${category}&difficulty=${difficulty}&sort=${sort}` +
            (range ? `&rewardRange=${encodeURIComponent(range)}` : ''),
        ),
      ),
    ),
  );
  return paths.map((_, i) => paths[(i * 7) % paths.length]);
}

/**
 * What the bench's clients need of a seeded folder, read before the server opens it: the token
 * secret, the seeded workers, and the open tasks with at least `headroom` free slots. The
 * read-only handle is returned for more reads; close it before the server starts.
 */
export function seededFixtures(dataDir: string, nowIso: string, headroom: number) {
  const db = new Database(join(dataDir, 'taskreward.db'), { readonly: true });
  const secret = new TextEncoder().encode(readFileSync(join(dataDir, 'secret.key'), 'utf8').trim());
  const users = db
    .prepare(
      `SELECT * FROM users WHERE role = 'user' AND status = 'active' AND deleted_at IS NULL
       AND email LIKE 'user%@bench.test' ORDER BY _id`,
    )
    .all() as (UserRow & { balance: number })[];
  const openTasks = (
    db
      .prepare(
        `SELECT _id FROM tasks WHERE status = 'active' AND deleted_at IS NULL
         AND (deadline IS NULL OR deadline > ?) AND reserved < max_completions - ? ORDER BY _id`,
      )
      .all(nowIso, headroom) as { _id: string }[]
  ).map((r) => r._id);
  return { db, secret, users, openTasks };
}

export interface Scenario {
  key: string;
  label: string;
  concurrency: number;
  result: LoadResult;
  /** Answers that were not the expected status (each a failed request), and the first of them. */
  failures: number;
  firstFailure?: string;
  /** The server's VmRSS and VmHWM (peak so far) right after the scenario, bytes (summed over the nodes). */
  rssAfter: number;
  peakAfter: number;
  /**
   * CPU of the server processes (every thread, /proc/PID/stat utime + stime, summed over the
   * nodes) per answered request during the rounds, ms; nothing subtracted.
   */
  serverCpuMs: number;
  /**
   * The bare image pipeline at the same concurrency (limits.ts measurePipeline), a round of it
   * before each of the scenario's rounds, in this process while the server idles: the upload's limit.
   */
  pipeline?: PipelineResult;
  /** Where the CPU went during the rounds (with a CpuProbe). */
  cpu?: CpuSplit;
  /** What PostgreSQL's sessions waited on during the rounds (with a WaitSampler). */
  waits?: WaitProfile;
  /**
   * The limits measured right before each round (besideWrites), per second, with the round's
   * own rate and the load average after it: the ratios are taken round by round.
   */
  beside?: { limits: Record<string, number>; rps: number; load: number }[];
}

/** The write scenarios of one transaction each, whose limits run between their rounds (besideWrites). */
export const WRITE_KEYS = ['start', 'approve', 'withdraw'] as const;

/** A task-list scenario loaded by wrk (bench/wrk.ts) instead of the bench's own client. */
export interface WrkScenario {
  key: string;
  label: string;
  concurrency: number;
  result: WrkResult;
  /** The server's CPU per request over the wrk rounds (ms, every thread of its process). */
  serverCpuMs: number;
}

export interface AppBench {
  scenarios: Scenario[];
  /** The task-list scenarios again under wrk; null when wrk is not installed. */
  wrk: { version: string; scenarios: WrkScenario[] } | null;
  /** VmHWM of the server process after every scenario, bytes. */
  peakRss: number;
  /** VmRSS of the server right after it started on the seeded folder, bytes. */
  idleRss: number;
  /** The size of the 1 MB proof image sent by the upload scenario, bytes, and its pixels. */
  proof: { bytes: number; width: number; height: number };
  rounds: number;
  roundMs: number;
}

export interface AppBenchOptions {
  dataDir: string;
  scale: SeedScale;
  quick?: boolean;
  log?: (m: string) => void;
  /**
   * Run on PostgreSQL instead of the folder's SQLite file: `nodes` server processes,
   * each with a data folder of its own, all on `url` with the folder's secret as TOKEN_SECRET;
   * the load client spreads its connections over them. The fixtures then come from `fixtures`
   * (read from the SQLite file the database was copied from, before any run wrote to it).
   */
  postgres?: { url: string; nodes: number; fixtures: AppFixtures };
  /** The fixtures of a SQLite run, when read earlier (appFixtures). */
  fixtures?: AppFixtures;
  /** Measure the CPU split of each scenario's rounds; given the node pids once they run. */
  cpu?: (nodes: () => number[]) => CpuProbe;
  waits?: WaitSampler;
  /** Only these scenarios (their keys; 'upload' and 'uploadOne' bring 'start', whose records they use): `--app-only --only`. */
  only?: readonly string[];
  /**
   * Measures the write limits (per second, by name) while the server idles; run before each
   * measured round of the WRITE_KEYS scenarios, so each round has its limit beside it under the
   * same load of the machine.
   */
  besideWrites?: () => Record<string, number>;
}

/** Everything benchApp reads of a seeded folder before its server opens it. */
export function appFixtures(dataDir: string, nowIso: string) {
  const { db, secret, users, openTasks } = seededFixtures(dataDir, nowIso, 0);
  try {
    const pending =
      // a banned account's proofs cannot be approved (409 user_banned): only payable accounts'
      (
        db
          .prepare(
            `SELECT s._id FROM submissions s JOIN users u ON u._id = s.user_id
         WHERE s.status = 'pending' AND u.status <> 'banned' AND u.deleted_at IS NULL ORDER BY s._id`,
          )
          .all() as {
          _id: string;
        }[]
      ).map((r) => r._id);
    const counts = db
      .prepare(
        `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM submissions) AS submissions,
                (SELECT count(*) FROM withdrawals) AS withdrawals`,
      )
      .get() as { users: number; submissions: number; withdrawals: number };
    // task records started after the seed, by earlier runs on a kept folder: their starts take
    // the pairs of the first cursors again, so this run's starts begin past them
    const marker = join(dataDir, 'bench-seed.json');
    const seededRecords = existsSync(marker)
      ? ((JSON.parse(readFileSync(marker, 'utf8')) as { rows?: { user_tasks?: number } }).rows?.user_tasks ??
        0)
      : 0;
    const records = (db.prepare('SELECT count(*) AS n FROM user_tasks').get() as { n: number }).n;
    const startedEarlier = seededRecords > 0 ? Math.max(0, records - seededRecords) : 0;
    return { secret, users, openTasks, pending, counts, startedEarlier };
  } finally {
    db.close();
  }
}
export type AppFixtures = ReturnType<typeof appFixtures>;

const ADMIN_CONCURRENCY = 1;

interface UserFixture {
  row: UserRow;
  index: number;
  balance: number;
  token: string;
}

/** A screenshot-like PNG (1080 x 2340, gradients, text-like noisy bands) of about 1 MB. */
export function proofPng(targetBytes = 1_000_000): { bytes: Buffer; width: number; height: number } {
  const width = 1080;
  const height = 2340;
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  let density = 0.08;
  let out: Buffer = Buffer.alloc(0);
  for (let attempt = 0; attempt < 8; attempt++) {
    const png = new PNG({ width, height });
    seed = 12345;
    for (let y = 0; y < height; y++) {
      const band = Math.floor(y / 40) % 3 === 1;
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        const noisy = band && rnd() < density;
        png.data[i] = noisy ? Math.floor(rnd() * 256) : (x * 255) / width;
        png.data[i + 1] = noisy ? Math.floor(rnd() * 256) : (y * 255) / height;
        png.data[i + 2] = noisy ? Math.floor(rnd() * 256) : 180;
        png.data[i + 3] = 255;
      }
    }
    out = PNG.sync.write(png);
    if (Math.abs(out.byteLength - targetBytes) < targetBytes * 0.05) break;
    density *= targetBytes / out.byteLength;
  }
  return { bytes: out, width, height };
}

export function multipart(
  fields: Record<string, string>,
  file: { field: string; name: string; type: string; bytes: Buffer },
) {
  const boundary = `----bench${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const json = (method: string, path: string, body: unknown, token?: string): RequestSpec => ({
  method,
  path,
  body: JSON.stringify(body),
  headers: {
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  },
});
const get = (path: string, token?: string): RequestSpec => ({
  path,
  headers: token ? { authorization: `Bearer ${token}` } : {},
});

/** A process's VmRSS or VmHWM (its peak so far), bytes; 0 once it is gone. */
export function readVm(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function login(url: string, email: string, password: string): Promise<string> {
  const answer = await send(url, json('POST', '/api/auth/login', { email, password }));
  if (answer.status !== 200) throw new Error(`login of ${email}: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body.toString()) as { token: string }).token;
}

export async function benchApp(options: AppBenchOptions): Promise<AppBench> {
  const log = options.log ?? (() => {});
  const { dataDir, scale } = options;
  const roundCount = 3;
  const roundMs = options.quick ? 1_500 : 5_000;
  const warmMs = options.quick ? 300 : 1_000;
  const nowIso = new Date().toISOString();

  // ---- fixtures, read before the server opens the folder ----
  const {
    secret,
    users: userRows,
    openTasks,
    pending,
    counts,
    startedEarlier,
  } = options.postgres?.fixtures ?? options.fixtures ?? appFixtures(dataDir, nowIso);
  // the seeded index of a user or a task is its id's counter (bench/seed.ts hexId)
  const indexOf = (id: string) => Number.parseInt(id.slice(1), 16);
  const users: UserFixture[] = await Promise.all(
    userRows.map(async (row) => ({
      row,
      index: indexOf(row._id),
      balance: row.balance,
      token: await signToken(row, false, secret, benchSessionId(row._id)),
    })),
  );
  const stride = taskStride(scale);
  log(`fixtures: ${users.length} active users, ${openTasks.length} open tasks, ${pending.length} pending`);

  const proof = proofPng();
  log(`proof image: ${proof.width}x${proof.height} PNG, ${proof.bytes.byteLength} bytes`);
  // the bare pipeline reads the proof from a file, as the server's sanitizeProof reads the
  // upload it staged in its temp folder
  const proofDir = mkdtempSync(join(tmpdir(), 'taskreward-proof-'));
  const proofFile = join(proofDir, 'proof.png');
  writeFileSync(proofFile, proof.bytes);

  // a start on a machine other work loads (and a first migration of a full-scale folder) may
  // outlast the 30 s the fault tests allow
  const startTimeoutMs = 300_000;
  const pgOptions = options.postgres;
  const servers: ServerProcess[] = [];
  if (pgOptions) {
    // one after the other: each checks the migrations (nothing to do) and the first admin as it starts
    const env = { DATABASE_URL: pgOptions.url, TOKEN_SECRET: new TextDecoder().decode(secret) };
    for (let n = 0; n < pgOptions.nodes; n++)
      servers.push(
        await startServerProcess({ dataDir: freshDataDir('taskreward-bench-node-'), env, startTimeoutMs }),
      );
  } else {
    servers.push(await startServerProcess({ dataDir, startTimeoutMs }));
  }
  const server = servers[0];
  const urls = servers.map((s) => s.url);
  const sumVm = (field: 'VmRSS' | 'VmHWM') => servers.reduce((n, s) => n + readVm(s.pid, field), 0);
  const probe = options.cpu?.(() => servers.map((s) => s.pid));
  const scenarios: Scenario[] = [];
  try {
    const { url } = server;
    const idleRss = sumVm('VmRSS');
    const adminToken = await login(url, ADMIN.email, ADMIN.password);

    const wanted = (key: string) =>
      !options.only ||
      options.only.includes(key) ||
      (key === 'start' && options.only.some((k) => k.startsWith('upload')));
    const measure = async (
      key: string,
      label: string,
      concurrency: number,
      next: (i: number) => RequestSpec,
      opts: {
        expect?: number;
        warm?: boolean;
        onOk?: (a: Answer, spec: RequestSpec) => void;
        /** the image file for the bare image pipeline, run at `concurrency` before each round */
        pipeline?: string;
      } = {},
    ) => {
      if (!wanted(key)) return null;
      const expect = opts.expect ?? 200;
      let failures = 0;
      let firstFailure: string | undefined;
      let counter = 0;
      const onAnswer = (a: Answer, spec: RequestSpec) => {
        if (a.status === expect) {
          opts.onOk?.(a, spec);
          return;
        }
        failures++;
        firstFailure ??= `${spec.method ?? 'GET'} ${spec.path}: ${a.status} ${a.body.toString().slice(0, 300)}`;
      };
      const load = (durationMs: number) =>
        runLoad({ url: urls, concurrency, durationMs, next: () => next(counter++), onAnswer });
      if (opts.warm !== false) await load(warmMs);
      const pipelines: PipelineResult[] = [];
      const bare = opts.pipeline;
      if (bare) await measurePipeline(bare, concurrency, warmMs);
      const cpuSpan = probe?.start();
      options.waits?.start();
      const serverCpu = () => servers.reduce((n, s) => n + processCpuMs(s.pid), 0);
      let serverMs = 0;
      const besideRound = (WRITE_KEYS as readonly string[]).includes(key) ? options.besideWrites : undefined;
      const beside: { limits: Record<string, number>; rps: number; load: number }[] = [];
      const result = await rounds(roundCount, async () => {
        // interleaved: the limit's round, then the scenario's, so both see the same load
        if (bare) pipelines.push(await measurePipeline(bare, concurrency, roundMs));
        const limits = besideRound?.();
        const before = serverCpu();
        const round = await load(roundMs);
        serverMs += serverCpu() - before;
        if (limits) beside.push({ limits, rps: round.rps, load: loadavg()[0] });
        return round;
      });
      const cpu = cpuSpan?.();
      const waits = options.waits?.stop();
      const scenario: Scenario = {
        key,
        label,
        concurrency,
        result,
        failures,
        firstFailure,
        rssAfter: sumVm('VmRSS'),
        peakAfter: sumVm('VmHWM'),
        serverCpuMs: serverMs / Math.max(1, result.requests),
        ...(pipelines.length ? { pipeline: medianPipeline(pipelines) } : {}),
        ...(cpu ? { cpu } : {}),
        ...(waits ? { waits } : {}),
        ...(beside.length ? { beside } : {}),
      };
      scenarios.push(scenario);
      log(
        `${label.padEnd(52)} c=${String(concurrency).padStart(2)} ${result.rps.toFixed(0).padStart(6)} req/s` +
          `  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms` +
          `  rss ${(scenario.rssAfter / 1048576).toFixed(0)} MB  server CPU ${scenario.serverCpuMs.toFixed(2)} ms/req` +
          (scenario.pipeline
            ? `  [bare pipeline c=${concurrency}: ${scenario.pipeline.perSecond.toFixed(1)}/s, CPU ${scenario.pipeline.cpuMs.toFixed(1)} ms/image]`
            : '') +
          (failures ? `  ${failures} FAILED: ${firstFailure}` : ''),
      );
      return scenario;
    };

    // a first warm-up over the public pages (JIT, SQLite's cache), so the first scenario is not
    // the one that pays for it
    const warmPaths = [
      '/api/tasks',
      '/api/tasks?sort=highest_reward',
      `/api/tasks?category=${CATEGORIES[1]}`,
    ];
    await runLoad({
      url: urls,
      concurrency: 16,
      durationMs: options.quick ? 1_000 : 3_000,
      next: (i) => get(i % 4 === 3 ? `/api/tasks/${openTasks[i % openTasks.length]}` : warmPaths[i % 3]),
    });

    // ---- reads: the public pages at 16 clients; the admin screens at one (an admin paging:
    // latency is the figure there, and a single-threaded server queues c requests, p99 ≈ c × service) ----
    await measure('taskList', 'task list, filters and sorts (8 kinds, anonymous)', 16, (i) =>
      get(LIST_VARIANTS[i % LIST_VARIANTS.length]),
    );
    await measure('taskListDefault', 'task list, default (newest, page 1)', 16, () => get('/api/tasks'));
    // the signed-in rows send the same workers under both clients (500 for the list, 40 for the
    // details, as wrk's below), workers who come back: what a worker's path costs at the limit. A
    // worker's first request (session, token and done tasks read for the first time) is a row of its own.
    const listWorkers = users.slice(0, 500);
    await measure('taskListUser', 'task list, signed-in user (own tasks hidden)', 16, (i) =>
      get('/api/tasks', listWorkers[(i * 13) % listWorkers.length].token),
    );
    await measure('taskListNewWorker', "task list, signed-in, each request another worker's first", 16, (i) =>
      get('/api/tasks', users[(i * 13) % users.length].token),
    );
    await measure('taskListSearch', 'task list, text search (q=anket)', 16, () => get('/api/tasks?q=anket'));
    const deepTaskPage = Math.max(1, Math.floor((openTasks.length / 20) * 0.9));
    await measure('taskListDeep', `task list, page ${deepTaskPage} of 20`, 16, () =>
      get(`/api/tasks?page=${deepTaskPage}`),
    );
    const coldSearches = coldSearchPaths();
    await measure(
      'taskListSearchCold',
      `task list, q=anket in ${coldSearches.length} filters (cache misses)`,
      16,
      (i) => get(coldSearches[i % coldSearches.length]),
    );
    // the same list scenarios under wrk, a C load generator that leaves the server more CPU
    const wrkScenarios: WrkScenario[] = [];
    // wrk loads one URL: not with several nodes
    const version = servers.length === 1 ? wrkVersion() : null;
    if (version) {
      const viaWrk = async (key: string, label: string, paths: string[], authorizations?: string[]) => {
        if (!wanted(key)) return;
        const options = { url, paths, authorizations, connections: 16, durationMs: roundMs };
        if (warmMs > 0) await wrkRounds(1, 0, { ...options, durationMs: warmMs });
        const cpuBefore = processCpuMs(servers[0].pid);
        const { rounds: _r, ...result } = await wrkRounds(roundCount, 0, options);
        const serverCpuMs = (processCpuMs(servers[0].pid) - cpuBefore) / Math.max(1, result.requests);
        wrkScenarios.push({ key, label, concurrency: 16, result, serverCpuMs });
        log(
          `${`${label} [wrk]`.padEnd(52)} c=16 ${result.rps.toFixed(0).padStart(6)} req/s` +
            `  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  server CPU ${serverCpuMs.toFixed(2)} ms/req` +
            (result.failures ? `  ${result.failures} FAILED` : ''),
        );
      };
      await viaWrk('taskList', 'task list, filters and sorts (8 kinds, anonymous)', LIST_VARIANTS);
      await viaWrk('taskListDefault', 'task list, default (newest, page 1)', ['/api/tasks']);
      await viaWrk(
        'taskListUser',
        'task list, signed-in user (own tasks hidden)',
        ['/api/tasks'],
        users.slice(0, 500).map((u) => `Bearer ${u.token}`),
      );
      await viaWrk('taskListSearch', 'task list, text search (q=anket)', ['/api/tasks?q=anket']);
      await viaWrk('taskListDeep', `task list, page ${deepTaskPage} of 20`, [
        `/api/tasks?page=${deepTaskPage}`,
      ]);
      await viaWrk(
        'taskListSearchCold',
        `task list, q=anket in ${coldSearches.length} filters (cache misses)`,
        coldSearches,
      );
      // the details too, the same tasks and viewers as the bench client's rows below
      const detailPaths = openTasks.slice(0, 400).map((id) => `/api/tasks/${id}`);
      await viaWrk('taskDetail', 'task detail (anonymous)', detailPaths);
      await viaWrk(
        'taskDetailUser',
        'task detail (signed-in user)',
        detailPaths,
        users.slice(0, 40).map((u) => `Bearer ${u.token}`),
      );
    } else {
      log('wrk not installed (Debian package wrk): the task list is measured with the bench client only');
    }
    await measure('taskDetail', 'task detail (anonymous)', 16, (i) =>
      get(`/api/tasks/${openTasks[(i * 31) % openTasks.length]}`),
    );
    const detailWorkers = users.slice(0, 40);
    await measure('taskDetailUser', 'task detail (signed-in user)', 16, (i) =>
      get(
        `/api/tasks/${openTasks[(i * 31) % Math.min(400, openTasks.length)]}`,
        detailWorkers[(i * 17) % detailWorkers.length].token,
      ),
    );

    const usersDeep = Math.floor((counts.users / 10) * 0.9);
    const subsDeep = Math.floor((counts.submissions / 20) * 0.9);
    const wdDeep = Math.floor((counts.withdrawals / 20) * 0.9);
    await measure('adminUsers', 'admin users, page 1 of 10', ADMIN_CONCURRENCY, () =>
      get('/api/admin/users?page=1', adminToken),
    );
    await measure('adminUsersDeep', `admin users, page ${usersDeep} of 10`, ADMIN_CONCURRENCY, () =>
      get(`/api/admin/users?page=${usersDeep}`, adminToken),
    );
    await measure('adminSubmissions', 'admin submissions, page 1 of 20', ADMIN_CONCURRENCY, () =>
      get('/api/admin/submissions?page=1', adminToken),
    );
    await measure(
      'adminSubmissionsDeep',
      `admin submissions, page ${subsDeep} of 20`,
      ADMIN_CONCURRENCY,
      () => get(`/api/admin/submissions?page=${subsDeep}`, adminToken),
    );
    await measure('adminWithdrawals', 'admin withdrawals, page 1 of 20', ADMIN_CONCURRENCY, () =>
      get('/api/admin/withdraws?page=1', adminToken),
    );
    await measure('adminWithdrawalsDeep', `admin withdrawals, page ${wdDeep} of 20`, ADMIN_CONCURRENCY, () =>
      get(`/api/admin/withdraws?page=${wdDeep}`, adminToken),
    );
    await measure('adminStats', 'admin dashboard stats (/stats)', ADMIN_CONCURRENCY, () =>
      get('/api/admin/stats', adminToken),
    );
    await measure('adminStatsToday', 'admin dashboard stats (/stats/today)', ADMIN_CONCURRENCY, () =>
      get('/api/admin/stats/today', adminToken),
    );

    // ---- login: argon2id verify included (the server runs at most two at once) ----
    await measure('login', 'login (argon2id verify)', 4, (i) =>
      json('POST', '/api/auth/login', {
        email: users[(i * 7) % users.length].row.email,
        password: SEED_PASSWORD,
      }),
    );

    // ---- writes ----
    // starting a task the user has not started: user u holds the tasks t ≡ u (mod stride)
    const started: { token: string; taskId: string }[] = [];
    const used = new Set<string>();
    // past the cursors of earlier runs' starts (a few skipped pairs each, hence the margin)
    let startCursor = startedEarlier > 0 ? Math.ceil(startedEarlier * 1.01) + 1_000 : 0;
    const nextStart = (): RequestSpec => {
      for (;;) {
        const n = startCursor++;
        const user = users[n % users.length];
        const taskId = openTasks[(n * 7919 + Math.floor(n / users.length)) % openTasks.length];
        const key = `${user.index}:${taskId}`;
        if (indexOf(taskId) % stride === user.index % stride || used.has(key)) continue;
        used.add(key);
        return {
          ...json('POST', `/api/tasks/${taskId}/start`, {}, user.token),
          path: `/api/tasks/${taskId}/start`,
        };
      }
    };
    await measure('start', 'start a task', 4, () => nextStart(), {
      expect: 201,
      onOk: (_a, spec) => {
        const taskId = spec.path.split('/')[3];
        const token = spec.headers?.authorization?.slice(7) ?? '';
        started.push({ token, taskId });
      },
    });

    // a 1 MB proof for a started task: streamed to disk, re-encoded in the worker, stored
    let uploadCursor = 0;
    const nextUpload = (): RequestSpec => {
      const record = started[uploadCursor++ % started.length];
      const form = multipart(
        { task: record.taskId, description: 'bench proof' },
        { field: 'proofImage', name: 'proof.png', type: 'image/png', bytes: proof.bytes },
      );
      return {
        method: 'POST',
        path: '/api/submissions',
        body: form.body,
        headers: { 'content-type': form.contentType, authorization: `Bearer ${record.token}` },
      };
    };
    await measure('upload', 'proof upload, 1 MB PNG (re-encoded)', 2, () => nextUpload(), {
      expect: 201,
      pipeline: proofFile,
    });
    // the same, one at a time: the server's own time for one upload, with no other upload
    // queued beside it (at 2 clients a closed loop on 2 cores measures the throughput: each
    // upload waits for the other's share of the cores, so its p50 is 2 / the uploads per second)
    await measure('uploadOne', 'proof upload, 1 MB PNG, one at a time', 1, () => nextUpload(), {
      expect: 201,
      pipeline: proofFile,
    });
    if (uploadCursor > started.length)
      log(`warning: ${uploadCursor} uploads for ${started.length} started tasks`);

    // approving pending submissions: pays the reward, completes the record, counts the task
    let approveCursor = 0;
    await measure('approve', 'approve a submission', 4, () => {
      const id = pending[approveCursor++ % pending.length];
      return json('PUT', `/api/submissions/${id}/review`, { status: 'approved', feedback: 'ok' }, adminToken);
    });
    if (approveCursor > pending.length)
      log(`warning: ${approveCursor} approvals for ${pending.length} pending`);

    // withdrawal requests of 20 TL (the minimum payout) from users who have that much
    const payers = users.filter((u) => u.balance >= 2_000);
    const spent = new Map<number, number>();
    let payCursor = 0;
    await measure(
      'withdraw',
      'withdrawal request (20 TL)',
      4,
      () => {
        let user = payers[payCursor++ % payers.length];
        for (let k = 0; k < payers.length && (spent.get(user.index) ?? 0) + 2_000 > user.balance; k++)
          user = payers[payCursor++ % payers.length];
        spent.set(user.index, (spent.get(user.index) ?? 0) + 2_000);
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
      },
      { expect: 201 },
    );

    return {
      scenarios,
      wrk: version ? { version, scenarios: wrkScenarios } : null,
      peakRss: servers.reduce((n, s) => n + s.peakRss(), 0),
      idleRss,
      proof: { bytes: proof.bytes.byteLength, width: proof.width, height: proof.height },
      rounds: roundCount,
      roundMs,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(proofDir, { recursive: true, force: true });
    if (pgOptions) for (const s of servers) rmSync(s.dataDir, { recursive: true, force: true });
  }
}
