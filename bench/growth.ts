// npm run bench -- --growth: the same figures on the full-scale folder and on a grown one (10x the
// tasks, 3x the submissions, the same users), each against its limit measured in the same run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ADMIN, runDoctor, startServerProcess } from '../faults/server';
import { CATEGORIES, DIFFICULTIES, REWARD_RANGES, TASK_SORTS } from '../src-server/contract/constants';
import { signToken } from '../src-server/features/users/token';
import { type AppBench, type AppFixtures, appFixtures, benchApp } from './app';
import { CONCURRENCY, type LoopResult, measureTransactionAtScale, startLimitServer } from './limits';
import { type RequestSpec, runLoad, send } from './load';
import { benchSessionId, type SeedResult, type SeedScale, seed, taskStride } from './seed';
import { wrkRounds, wrkVersion } from './wrk';

/**
 * The grown scale of a base scale: ten times the tasks and three times the submissions, the same
 * users and withdrawals (what grows in a marketplace's first years is its catalogue and its
 * history; the admin's user and payout lists then stay the control). The seeder gives each user
 * an equal share of the submissions on a fixed task stride, so the task count is rounded down to
 * a multiple of the submissions per user (99,990 at the full scale).
 */
export function grownScale(base: SeedScale): SeedScale {
  const submissions = base.submissions * 3;
  const perUser = submissions / base.users;
  return {
    users: base.users,
    tasks: Math.floor((base.tasks * 10) / perUser) * perUser,
    submissions,
    withdrawals: base.withdrawals,
  };
}

export interface GrownFolder {
  dataDir: string;
  seeded: SeedResult;
  /** Removed at the end of the run (no --data / --keep). */
  temporary: boolean;
}

/**
 * Seeds (or reuses) the grown folder beside the base one: --grown-data DIR, else the base folder's
 * path with "-grown" appended when the base is kept (--data, --keep), else a temporary folder.
 */
export async function seedGrown(
  baseDir: string,
  base: SeedScale,
  fixed: string | undefined,
  log: (m: string) => void,
): Promise<GrownFolder> {
  const args = process.argv.slice(2);
  const i = args.indexOf('--grown-data');
  const named = i >= 0 ? args[i + 1] : undefined;
  const dataDir = named
    ? resolve(named)
    : fixed
      ? `${baseDir.replace(/\/+$/, '')}-grown`
      : mkdtempSync(join(os.tmpdir(), 'taskreward-bench-grown-'));
  const scale = grownScale(base);
  log(
    `seeding the grown folder ${dataDir} (${scale.users} users, ${scale.tasks} tasks, ${scale.submissions} submissions, ${scale.withdrawals} withdrawals)`,
  );
  const seeded = await seed(dataDir, scale, { reuse: Boolean(named || fixed), log });
  log(`grown folder seeded in ${(seeded.ms.total / 1000).toFixed(1)} s${seeded.reused ? ' (reused)' : ''}`);
  return { dataDir, seeded, temporary: !named && !fixed };
}

// ---------------------------------------------------------------------------------------------
// The growth run: rounds that each measure the read limit (Hono + one prepared SELECT, under the
// bench's client and under wrk), then the app's scenarios on the full folder, then on the grown
// one. The write limit is the bare transaction on a copy of each folder's own tables, once per
// folder (a copy of the grown database is several GB: once is what a run can afford).

/** The figures of the growth table: reads, the task list under wrk, and the writes of one transaction. */
export const GROWTH_KEYS = [
  'taskListDefault',
  'taskList',
  'taskListSearch',
  'taskListSearchCold',
  'taskListDeep',
  'taskListUser',
  'taskDetail',
  'taskDetailUser',
  'adminSubmissions',
  'adminSubmissionsDeep',
  'adminUsers',
  'adminUsersDeep',
  'adminWithdrawals',
  'adminWithdrawalsDeep',
  'adminStats',
  'start',
  'approve',
  'withdraw',
] as const;
const WRITE_KEYS = new Set(['start', 'approve', 'withdraw']);

interface FolderRun {
  label: 'full' | 'grown';
  dataDir: string;
  seeded: SeedResult;
  tx: LoopResult;
  apps: AppBench[];
}

interface RoundLimit {
  honoSqlite: number;
  wrk: number | null;
  load: number;
}

export interface GrowthFigure {
  key: string;
  label: string;
  viaWrk: boolean;
  limit: string;
  full: { ratio: number; rps: number; p99: number };
  grown: { ratio: number; rps: number; p99: number };
  /** Grown ratio minus full ratio, in percentage points. */
  points: number;
  /** Grown p99 over full p99. */
  p99x: number;
  met: boolean;
  failures: number;
}

export interface PlannedStatement {
  figure: string;
  sql: string;
  full: { ms: number | null; plan: string[] } | null;
  grown: { ms: number | null; plan: string[] } | null;
}

export interface GrowthBench {
  full: FolderRun;
  grown: FolderRun;
  limits: RoundLimit[];
  figures: GrowthFigure[];
  plans: PlannedStatement[];
  doctor: { full: string | null; grown: string | null };
  roundMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Hono + one prepared SELECT of 20 rows, one short run under the bench's client and one under wrk. */
async function readLimit(quick: boolean): Promise<RoundLimit> {
  const dir = mkdtempSync(join(os.tmpdir(), 'taskreward-growth-limit-'));
  const server = await startLimitServer('hono-sqlite', dir);
  try {
    const round = (durationMs: number) =>
      runLoad({ url: server.url, concurrency: CONCURRENCY, durationMs, next: () => ({ path: '/tasks' }) });
    const ms = quick ? 1_500 : 3_000;
    await round(300);
    const result = await round(ms);
    const wrk = wrkVersion()
      ? (
          await wrkRounds(1, 300, {
            url: server.url,
            paths: ['/tasks'],
            connections: CONCURRENCY,
            durationMs: ms,
          })
        ).rps
      : null;
    return { honoSqlite: result.rps, wrk, load: os.loadavg()[0] };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The folder's fixtures with the workers rotated, so each round starts tasks no earlier round started. */
function rotatedFixtures(dataDir: string, round: number): AppFixtures {
  const fixtures = appFixtures(dataDir, new Date().toISOString());
  const shift = Math.floor((fixtures.users.length * round) / 7);
  return { ...fixtures, users: [...fixtures.users.slice(shift), ...fixtures.users.slice(0, shift)] };
}

export async function benchGrowth(options: {
  full: { dataDir: string; scale: SeedScale; seeded: SeedResult };
  grown: GrownFolder;
  quick: boolean;
  rounds?: number;
  doctor?: boolean;
  log?: (m: string) => void;
}): Promise<GrowthBench> {
  const log = options.log ?? (() => {});
  const roundCount = options.rounds ?? 3;
  const doctorOf = (dir: string) => {
    if (!options.doctor) return null;
    const d0 = performance.now();
    const d = runDoctor(dir);
    const status = `${d.status === 0 ? 'all checks passed' : `exit ${d.status}`} in ${((performance.now() - d0) / 1000).toFixed(0)} s`;
    log(`doctor on ${dir}: ${status}${d.status === 0 ? '' : `\n${d.output.slice(0, 2000)}`}`);
    return status;
  };
  const doctor = { full: doctorOf(options.full.dataDir), grown: doctorOf(options.grown.dataDir) };
  const folders: FolderRun[] = [
    {
      label: 'full',
      dataDir: options.full.dataDir,
      seeded: options.full.seeded,
      tx: null as never,
      apps: [],
    },
    {
      label: 'grown',
      dataDir: options.grown.dataDir,
      seeded: options.grown.seeded,
      tx: null as never,
      apps: [],
    },
  ];
  const scales = { full: options.full.scale, grown: options.grown.seeded.scale };
  for (const f of folders) {
    f.tx = measureTransactionAtScale(join(f.dataDir, 'taskreward.db'), options.quick ? 1_000 : 3_000);
    log(
      `bare transaction on a copy of the ${f.label} folder: ${f.tx.perSecond.toFixed(0)}/s (load ${os.loadavg()[0].toFixed(1)})`,
    );
  }
  const limits: RoundLimit[] = [];
  for (let r = 0; r < roundCount; r++) {
    const limit = await readLimit(options.quick);
    limits.push(limit);
    log(
      `round ${r + 1}: Hono + prepared SELECT ${limit.honoSqlite.toFixed(0)} req/s` +
        (limit.wrk ? ` (wrk ${limit.wrk.toFixed(0)})` : '') +
        `, load ${limit.load.toFixed(1)}`,
    );
    for (const f of folders) {
      log(`round ${r + 1}, ${f.label} folder (load ${os.loadavg()[0].toFixed(1)})`);
      f.apps.push(
        await benchApp({
          dataDir: f.dataDir,
          scale: scales[f.label],
          // short rounds: the run is the scenarios twice over, three times
          quick: true,
          only: GROWTH_KEYS,
          fixtures: rotatedFixtures(f.dataDir, r + 1),
          log: (m) => log(`  ${m}`),
        }),
      );
    }
  }
  const figures = growthFigures(folders, limits);
  log('statements of one request of each figure, on each folder');
  const plans = await growthPlans(folders, scales, figures, log);
  return {
    full: folders[0],
    grown: folders[1],
    limits,
    figures,
    plans,
    doctor,
    roundMs: folders[0].apps[0]?.roundMs ?? 0,
  };
}

function growthFigures(folders: FolderRun[], limits: RoundLimit[]): GrowthFigure[] {
  const [full, grown] = folders;
  const figures: GrowthFigure[] = [];
  const side = (f: FolderRun, key: string, viaWrk: boolean) => {
    const ratios: number[] = [];
    const rps: number[] = [];
    const p99: number[] = [];
    let failures = 0;
    let label = '';
    f.apps.forEach((app, r) => {
      const s = viaWrk
        ? app.wrk?.scenarios.find((x) => x.key === key)
        : app.scenarios.find((x) => x.key === key);
      if (!s) return;
      label = s.label;
      const limit = WRITE_KEYS.has(key) ? f.tx.perSecond : viaWrk ? limits[r].wrk : limits[r].honoSqlite;
      if (!limit) return;
      ratios.push(s.result.rps / limit);
      rps.push(s.result.rps);
      p99.push(s.result.p99);
      failures +=
        'failures' in s && typeof s.failures === 'number'
          ? s.failures
          : ((s.result as { failures?: number }).failures ?? 0);
    });
    if (!ratios.length) return null;
    return { label, ratio: median(ratios), rps: median(rps), p99: median(p99), failures };
  };
  for (const viaWrk of [false, true]) {
    for (const key of GROWTH_KEYS) {
      const a = side(full, key, viaWrk);
      const b = side(grown, key, viaWrk);
      if (!a || !b) continue;
      const points = (b.ratio - a.ratio) * 100;
      const p99x = b.p99 / a.p99;
      const pageOf = (l: string) => /page (\d+)/.exec(l)?.[1];
      const label =
        a.label === b.label || !pageOf(b.label) ? a.label : `${a.label} (grown: page ${pageOf(b.label)})`;
      figures.push({
        key,
        label: viaWrk ? `${label}, under wrk` : label,
        viaWrk,
        limit: WRITE_KEYS.has(key)
          ? 'bare transaction on the folder'
          : viaWrk
            ? 'Hono + SELECT, wrk'
            : 'Hono + SELECT',
        full: a,
        grown: b,
        points,
        p99x,
        // a failed request (a banned worker's pending proof the approvals drew) is shown, not judged
        met: points >= -10 && p99x <= 2,
        failures: a.failures + b.failures,
      });
    }
  }
  return figures;
}

/** One request of each figure, as bench/app.ts sends it (first of its kind on a fresh server). */
async function probeRequests(
  scale: SeedScale,
  adminToken: string,
  fixtures: AppFixtures,
): Promise<Map<string, RequestSpec>> {
  const { users, openTasks, pending, counts, secret } = fixtures;
  const indexOf = (id: string) => Number.parseInt(id.slice(1), 16);
  const worker = users[Math.floor(users.length / 3)];
  const token = await signToken(worker, false, secret, benchSessionId(worker._id));
  const auth = (t: string) => ({ authorization: `Bearer ${t}` });
  const jsonBody = (method: string, path: string, body: unknown, t: string): RequestSpec => ({
    method,
    path,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...auth(t) },
  });
  const stride = taskStride(scale);
  const unstarted =
    openTasks.find((t) => indexOf(t) % stride !== indexOf(worker._id) % stride) ?? openTasks[0];
  const task = openTasks[Math.floor(openTasks.length / 2)];
  const payer = users.find((u) => (u as { balance: number }).balance >= 2_000) ?? worker;
  const payerToken = await signToken(payer, false, secret, benchSessionId(payer._id));
  const deepTaskPage = Math.max(1, Math.floor((openTasks.length / 20) * 0.9));
  const cold = `/api/tasks?q=anket&category=${CATEGORIES[3]}&difficulty=${DIFFICULTIES[1]}&sort=${TASK_SORTS[2]}`;
  return new Map<string, RequestSpec>([
    ['taskListDefault', { path: '/api/tasks' }],
    ['taskList', { path: `/api/tasks?category=${CATEGORIES[4]}&rewardRange=${REWARD_RANGES[2]}` }],
    ['taskListSearch', { path: '/api/tasks?q=anket' }],
    ['taskListSearchCold', { path: cold }],
    ['taskListDeep', { path: `/api/tasks?page=${deepTaskPage}` }],
    ['taskListUser', { path: '/api/tasks?sort=oldest', headers: auth(token) }],
    ['taskDetail', { path: `/api/tasks/${task}` }],
    ['taskDetailUser', { path: `/api/tasks/${openTasks[7]}`, headers: auth(token) }],
    ['adminSubmissions', { path: '/api/admin/submissions?page=1', headers: auth(adminToken) }],
    [
      'adminSubmissionsDeep',
      {
        path: `/api/admin/submissions?page=${Math.floor((counts.submissions / 20) * 0.9)}`,
        headers: auth(adminToken),
      },
    ],
    ['adminUsers', { path: '/api/admin/users?page=1', headers: auth(adminToken) }],
    [
      'adminUsersDeep',
      { path: `/api/admin/users?page=${Math.floor((counts.users / 10) * 0.9)}`, headers: auth(adminToken) },
    ],
    ['adminWithdrawals', { path: '/api/admin/withdraws?page=1', headers: auth(adminToken) }],
    [
      'adminWithdrawalsDeep',
      {
        path: `/api/admin/withdraws?page=${Math.floor((counts.withdrawals / 20) * 0.9)}`,
        headers: auth(adminToken),
      },
    ],
    ['adminStats', { path: '/api/admin/stats', headers: auth(adminToken) }],
    ['start', jsonBody('POST', `/api/tasks/${unstarted}/start`, {}, token)],
    [
      'approve',
      jsonBody(
        'PUT',
        `/api/submissions/${pending[pending.length >> 1]}/review`,
        { status: 'approved' },
        adminToken,
      ),
    ],
    [
      'withdraw',
      jsonBody(
        'POST',
        '/api/withdraws',
        {
          amount: 20,
          paymentMethod: 'papara',
          accountDetails: { fullName: payer.name, accountNumber: String(1_000_000_000 + indexOf(payer._id)) },
        },
        payerToken,
      ),
    ],
  ]);
}

interface Traced {
  sql: string;
  args: unknown[];
}

/** Runs each figure's request once on a server that logs its statements; the statements per figure. */
async function traceFolder(
  dataDir: string,
  scale: SeedScale,
  log: (m: string) => void,
): Promise<Map<string, Traced[]>> {
  const fixtures = appFixtures(dataDir, new Date().toISOString());
  const traceDir = mkdtempSync(join(os.tmpdir(), 'taskreward-growth-trace-'));
  const traceFile = join(traceDir, 'statements.jsonl');
  const server = await startServerProcess({
    dataDir,
    startTimeoutMs: 300_000,
    env: { NODE_OPTIONS: `--require ${resolve('bench/sql-trace.cjs')}`, SQL_TRACE_FILE: traceFile },
  });
  const byFigure = new Map<string, Traced[]>();
  try {
    const login = await send(server.url, {
      method: 'POST',
      path: '/api/auth/login',
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
      headers: { 'content-type': 'application/json' },
    });
    const adminToken = (JSON.parse(login.body.toString()) as { token: string }).token;
    const requests = await probeRequests(scale, adminToken, fixtures);
    for (const [key, spec] of requests) {
      writeFileSync(traceFile, '');
      const answer = await send(server.url, spec);
      if (answer.status >= 300) log(`  ${key}: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
      const lines = readFileSync(traceFile, 'utf8').split('\n').filter(Boolean);
      const seen = new Set<string>();
      const statements: Traced[] = [];
      for (const line of lines) {
        const t = JSON.parse(line) as Traced;
        if (seen.has(t.sql)) continue;
        seen.add(t.sql);
        statements.push(t);
      }
      byFigure.set(key, statements);
    }
  } finally {
    await server.stop();
    rmSync(traceDir, { recursive: true, force: true });
  }
  return byFigure;
}

/** A statement's plan, and for a read its median time over a few runs (ms); on a read-only handle. */
function planOf(db: Database.Database, t: Traced): { ms: number | null; plan: string[] } | null {
  try {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${t.sql}`).all(...t.args) as { detail: string }[]).map(
      (p) => p.detail,
    );
    let ms: number | null = null;
    if (/^\s*(SELECT|WITH)\b/i.test(t.sql)) {
      const stmt = db.prepare(t.sql);
      const times: number[] = [];
      const until = performance.now() + 300;
      for (let i = 0; i < 50 && (i < 3 || performance.now() < until); i++) {
        const s = performance.now();
        stmt.all(...t.args);
        times.push(performance.now() - s);
      }
      ms = median(times);
    }
    return { ms, plan };
  } catch {
    return null;
  }
}

async function growthPlans(
  folders: FolderRun[],
  scales: { full: SeedScale; grown: SeedScale },
  figures: GrowthFigure[],
  log: (m: string) => void,
): Promise<PlannedStatement[]> {
  const traced = {
    full: await traceFolder(folders[0].dataDir, scales.full, log),
    grown: await traceFolder(folders[1].dataDir, scales.grown, log),
  };
  const out: PlannedStatement[] = [];
  const dbs = {
    full: new Database(join(folders[0].dataDir, 'taskreward.db'), { readonly: true }),
    grown: new Database(join(folders[1].dataDir, 'taskreward.db'), { readonly: true }),
  };
  try {
    for (const key of GROWTH_KEYS) {
      const a = traced.full.get(key) ?? [];
      const b = traced.grown.get(key) ?? [];
      const missed = figures.some((f) => f.key === key && !f.met);
      const rows: PlannedStatement[] = [];
      for (const sql of new Set([...a.map((t) => t.sql), ...b.map((t) => t.sql)])) {
        const ta = a.find((t) => t.sql === sql);
        const tb = b.find((t) => t.sql === sql);
        rows.push({
          figure: key,
          sql,
          full: ta ? planOf(dbs.full, ta) : null,
          grown: tb ? planOf(dbs.grown, tb) : null,
        });
      }
      // the statements whose cost grew: at least 1.5x and 0.05 ms more, or a plan that changed; for a
      // figure that missed, its costliest statement on the grown folder too
      const grew = rows.filter((p) => {
        const x = p.full?.ms ?? null;
        const y = p.grown?.ms ?? null;
        const changed = p.full && p.grown && p.full.plan.join('|') !== p.grown.plan.join('|');
        return (x !== null && y !== null && y > 1.5 * x && y - x > 0.05) || Boolean(changed);
      });
      if (missed) {
        const costliest = [...rows].sort((p, q) => (q.grown?.ms ?? 0) - (p.grown?.ms ?? 0))[0];
        if (costliest && !grew.includes(costliest)) grew.push(costliest);
      }
      out.push(...grew);
      log(`  ${key}: ${rows.length} statements, ${grew.length} grew`);
    }
  } finally {
    dbs.full.close();
    dbs.grown.close();
  }
  return out;
}

const MB = 1024 * 1024;
const pctOf = (r: number) => `${(r * 100).toFixed(0)}%`;
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0));
const int = (n: number) => n.toLocaleString('en-US');
const shortSql = (sql: string) => {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
};
const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The growth table and the plans of the statements whose cost grew, as markdown lines. */
export function growthMarkdown(g: GrowthBench, command: string): string[] {
  const seedLine = (f: FolderRun) => {
    const s = f.seeded;
    const rows = s.rows;
    const time = s.reused
      ? `reused (seeded in ${(s.ms.total / 1000).toFixed(0)} s)`
      : `seeded in ${(s.ms.total / 1000).toFixed(0)} s (rows ${(s.ms.rows / 1000).toFixed(0)} s, indexes ${(s.ms.indexes / 1000).toFixed(0)} s)`;
    const doctor = g.doctor[f.label];
    return `| ${f.label} | ${int(rows.users)} | ${int(rows.tasks)} | ${int(rows.submissions)} | ${int(rows.withdrawals)} | ${int(rows.ledger)} | ${(s.dbBytes / MB).toFixed(0)} MB | ${time}${doctor ? `; doctor: ${doctor}` : ''} |`;
  };
  const loads = g.limits.map((l) => l.load.toFixed(1)).join(' / ');
  const missed = g.figures.filter((f) => !f.met);
  const lines = [
    `The same figures on the full-scale folder and on a grown one (10x the tasks, 3x the submissions, the same users), \`${command}\`.`,
    `${g.limits.length} rounds, each: Hono + prepared SELECT (the read limit, both clients), then every scenario on the full folder, then on the grown one`,
    `(${g.roundMs / 1000} s rounds, three per scenario); each figure is the median over the rounds of its ratio to the limit of its round (writes: to the`,
    `bare transaction on a copy of their own folder: full ${int(Math.round(g.full.tx.perSecond))}/s, grown ${int(Math.round(g.grown.tx.perSecond))}/s), and of its p99.`,
    `Read limit per round: ${g.limits.map((l) => `${int(Math.round(l.honoSqlite))}${l.wrk ? ` (wrk ${int(Math.round(l.wrk))})` : ''}`).join(' / ')} req/s; load average at each round's start ${loads}.`,
    'A figure is met when its ratio falls by no more than 10 points and its p99 grows by no more than 2x.',
    '',
    '| folder | users | tasks | submissions | withdrawals | ledger rows | database | seeding |',
    '|---|---|---|---|---|---|---|---|',
    seedLine(g.full),
    seedLine(g.grown),
    '',
    '| figure | limit | full | grown | ratio change, points | p99 full / grown ms | p99 growth | |',
    '|---|---|---|---|---|---|---|---|',
    ...g.figures.map(
      (f) =>
        `| ${f.label} | ${f.limit} | ${pctOf(f.full.ratio)} (${Math.round(f.full.rps)}/s) | ${pctOf(f.grown.ratio)} (${Math.round(f.grown.rps)}/s) | ${f.points >= 0 ? '+' : ''}${f.points.toFixed(0)} | ${ms(f.full.p99)} / ${ms(f.grown.p99)} | ${f.p99x.toFixed(2)}x | ${f.met ? 'met' : `**missed**${f.failures ? ` (${f.failures} failed)` : ''}`} |`,
    ),
    '',
    `${g.figures.length - missed.length} of ${g.figures.length} figures met.`,
    '',
  ];
  if (g.plans.length) {
    lines.push(
      'Statements whose cost grew (one request of each figure on a fresh server that logs its statements; each',
      'statement then timed alone on a read-only handle, median of up to 50 runs; writes show their plan only),',
      "with SQLite's EXPLAIN QUERY PLAN on each folder:",
      '',
      '| figure | statement | full ms | grown ms | plan, grown folder (full: when it differs) |',
      '|---|---|---|---|---|',
      ...g.plans.map((p) => {
        const a = p.full?.plan.join('; ') ?? '';
        const b = p.grown?.plan.join('; ') ?? '';
        const plan = a && a !== b ? `${b} (full: ${a})` : b || a;
        const t = (x: { ms: number | null } | null) => (x?.ms == null ? '' : ms(x.ms));
        return `| ${p.figure} | \`${cell(shortSql(p.sql))}\` | ${t(p.full)} | ${t(p.grown)} | ${cell(plan)} |`;
      }),
      '',
    );
  } else {
    lines.push('No statement of these requests grew in cost by 1.5x or changed its plan.', '');
  }
  return lines;
}

/** The growth row of the Targets table. */
export function growthTarget(g: GrowthBench) {
  const missed = g.figures.filter((f) => !f.met);
  return {
    what: 'growth: 10x the tasks, 3x the submissions (every figure above, both clients)',
    target: 'ratio −10 points at most, p99 2x at most',
    measured: missed.length
      ? `${missed.length} of ${g.figures.length} missed: ${missed.map((f) => `${f.label} ${f.points.toFixed(0)} pt, ${f.p99x.toFixed(1)}x`).join('; ')}`
      : `all ${g.figures.length} met (worst ${Math.min(...g.figures.map((f) => f.points)).toFixed(0)} pt, ${Math.max(...g.figures.map((f) => f.p99x)).toFixed(2)}x)`,
    met: missed.length === 0,
  };
}
