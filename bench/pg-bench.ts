// `npm run bench -- --postgres URL`: the app scenarios of bench/app.ts on the seeded
// SQLite folder, then on PostgreSQL with one app node, then with two, in the same run, with the
// CPU split of every scenario (load client, app nodes, PostgreSQL, the rest of the machine) and
// what PostgreSQL's sessions waited on. URL names a server and a role that may create databases
// (a superuser: the copy sets session_replication_role); the bench makes its own databases there
// (a seeded template, and one clone per configuration, so both start from the seeded state) and
// drops them at the end.
import os from 'node:os';
import { join } from 'node:path';
import { type AppBench, appFixtures, benchApp, type Scenario } from './app';
import {
  copyToPostgres,
  createDatabase,
  databaseUrl,
  dropDatabase,
  type PgSeedResult,
  withClient,
} from './pg-seed';
import { type CpuSplit, cpuProbe, findPostmaster, waitSampler } from './probes';
import type { SeedScale } from './seed';

export interface PgBench {
  started: Date;
  seconds: number;
  copy: PgSeedResult;
  server: { version: string; settings: Record<string, string>; local: boolean };
  sqlite: AppBench;
  pg1: AppBench;
  pg2: AppBench;
  /** The load average before and after the three runs (other users' work shows here). */
  load: { before: number[]; after: number[] };
}

const SETTINGS = [
  'fsync',
  'synchronous_commit',
  'full_page_writes',
  'wal_sync_method',
  'shared_buffers',
  'max_connections',
  'default_transaction_isolation',
];

export async function benchPostgres(options: {
  adminUrl: string;
  dataDir: string;
  scale: SeedScale;
  quick: boolean;
  /** Only these scenarios (`--only KEYS`), in every configuration. */
  only?: readonly string[];
  log: (m: string) => void;
}): Promise<PgBench> {
  const { adminUrl, dataDir, scale, quick, only, log } = options;
  const started = new Date();
  const t0 = performance.now();
  const base = `taskreward_bench_${process.pid}`;
  const template = `${base}_seed`;
  const made: string[] = [];
  const server = await withClient(adminUrl, async (c) => {
    const version = (await c.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
    const settings: Record<string, string> = {};
    for (const name of SETTINGS)
      settings[name] = (await c.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
    return { version, settings };
  });
  const postmaster = await findPostmaster(adminUrl);
  log(
    `PostgreSQL ${server.version} (${SETTINGS.map((s) => `${s}=${server.settings[s]}`).join(', ')})` +
      (postmaster ? `, postmaster pid ${postmaster}` : ', not on this machine: no CPU figures for it'),
  );
  try {
    log(`copying the seeded folder into the database ${template}`);
    made.push(template);
    const copy = await copyToPostgres(join(dataDir, 'taskreward.db'), adminUrl, template, log);
    log(`  copy: ${(copy.ms.total / 1000).toFixed(1)} s, ${(copy.bytes / 1024 / 1024).toFixed(0)} MB`);
    // the state the copy holds: the fixtures of every run (the SQLite run writes to its folder)
    const fixtures = appFixtures(dataDir, new Date().toISOString());
    const cpu = (nodes: () => number[]) => cpuProbe(nodes, postmaster);
    const before = os.loadavg();

    log('the app over HTTP: SQLite');
    const sqlite = await benchApp({ dataDir, scale, quick, only, fixtures, cpu, log: (m) => log(`  ${m}`) });

    const onPostgres = async (nodes: number) => {
      const name = `${base}_n${nodes}`;
      made.push(name);
      await createDatabase(adminUrl, name, template);
      const url = databaseUrl(adminUrl, name);
      const waits = await waitSampler(url);
      try {
        log(`the app over HTTP: PostgreSQL, ${nodes} node${nodes > 1 ? 's' : ''}`);
        return await benchApp({
          dataDir,
          scale,
          quick,
          only,
          cpu,
          waits,
          postgres: { url, nodes, fixtures },
          log: (m) => log(`  ${m}`),
        });
      } finally {
        await waits.close();
        await dropDatabase(adminUrl, name);
      }
    };
    const pg1 = await onPostgres(1);
    const pg2 = await onPostgres(2);
    return {
      started,
      seconds: (performance.now() - t0) / 1000,
      copy,
      server: { ...server, local: postmaster !== null },
      sqlite,
      pg1,
      pg2,
      load: { before, after: os.loadavg() },
    };
  } finally {
    for (const name of made) await dropDatabase(adminUrl, name).catch(() => {});
  }
}

const fmtMs = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0));
const fmtRate = (n: number) => (n < 100 ? n.toFixed(1) : n.toFixed(0));
const fmtX = (r: number) => `${r.toFixed(2)}×`;
const cores = (n: number) => n.toFixed(2);

/** The groups the ratio is summarised over: public reads, admin screens (one client), writes. */
const GROUPS: { name: string; keys: string[] }[] = [
  {
    name: 'reads: public pages, 16 clients',
    keys: [
      'taskList',
      'taskListDefault',
      'taskListUser',
      'taskListSearch',
      'taskListDeep',
      'taskListSearchCold',
      'taskDetail',
      'taskDetailUser',
    ],
  },
  {
    name: 'reads: admin screens, 1 client',
    keys: [
      'adminUsers',
      'adminUsersDeep',
      'adminSubmissions',
      'adminSubmissionsDeep',
      'adminWithdrawals',
      'adminWithdrawalsDeep',
      'adminStats',
      'adminStatsToday',
    ],
  },
  {
    name: 'writes of one transaction (start, approve, withdraw), 4 clients',
    keys: ['start', 'approve', 'withdraw'],
  },
  { name: 'proof upload, 2 clients', keys: ['upload'] },
  { name: 'login (argon2id), 4 clients', keys: ['login'] },
];

const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / Math.max(1, xs.length));

function byKey(app: AppBench, key: string): Scenario {
  const s = app.scenarios.find((x) => x.key === key);
  if (!s) throw new Error(`no scenario ${key}`);
  return s;
}

function split(c: CpuSplit | undefined): string {
  if (!c) return '';
  return `${cores(c.client)} / ${cores(c.nodes)} / ${cores(c.postgres)} / ${cores(c.other)} / ${cores(c.idle)}`;
}

/** Requests per CPU-second of the app node(s) and PostgreSQL together: what a request costs the server side. */
function perCoreSecond(s: Scenario): number {
  const used = (s.cpu?.nodes ?? 0) + (s.cpu?.postgres ?? 0);
  return used > 0 ? s.result.rps / used : 0;
}

function waitsOf(s: Scenario): string {
  const w = s.waits;
  if (!w || w.samples === 0) return '';
  const sessions = Object.entries(w.sessions)
    .filter(([, n]) => n >= 0.05)
    .slice(0, 4)
    .map(([k, n]) => `${k} ${n.toFixed(2)}`)
    .join(', ');
  const locks = Object.entries(w.lockWaits)
    .filter(([, n]) => n >= 0.05)
    .map(([k, n]) => `${k} ${n.toFixed(2)}`)
    .join(', ');
  const waiters = Object.entries(w.lockWaiters ?? {})
    .filter(([, n]) => n >= 0.05)
    .map(([k, n]) => `\`${k.replaceAll('`', '').replaceAll('|', '\\|')}…\` ${n.toFixed(2)}`)
    .join(', ');
  return `${sessions || 'idle'}${locks ? `; ungranted locks: ${locks}` : ''}${waiters ? `; waiting statements: ${waiters}` : ''}`;
}

export function pgMarkdown(r: PgBench, command: string): string[] {
  const { sqlite, pg1, pg2 } = r;
  const fails = (s: Scenario) => (s.failures ? ` (${s.failures} failed)` : '');
  const cell = (s: Scenario) =>
    `${fmtRate(s.result.rps)}${fails(s)} | ${fmtMs(s.result.p50)} | ${fmtMs(s.result.p99)}`;
  const settings = Object.entries(r.server.settings)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  const lines = [
    `Run on ${new Date(r.started).toISOString().slice(0, 16).replace('T', ' ')} UTC with \`${command}\`; the three runs took ${(r.seconds / 60).toFixed(1)} min.`,
    `PostgreSQL ${r.server.version} on the same machine (${settings}). Load average before ${r.load.before.map((x) => x.toFixed(2)).join(', ')}, after ${r.load.after.map((x) => x.toFixed(2)).join(', ')}.`,
    `The seeded folder copied into PostgreSQL in ${(r.copy.ms.copy / 1000).toFixed(1)} s (migrate ${(r.copy.ms.migrate / 1000).toFixed(1)} s, ANALYZE ${(r.copy.ms.analyze / 1000).toFixed(1)} s), ${(r.copy.bytes / 1024 / 1024).toFixed(0)} MB; each PostgreSQL run on its own clone of it.`,
    `Each figure: the median of ${sqlite.rounds} rounds of ${sqlite.roundMs / 1000} s after a warm-up; the same clients in all three runs (with two nodes, client w talks to node w mod 2).`,
    '',
    '| request | clients | SQLite req/s | p50 ms | p99 ms | PG 1 node req/s | p50 ms | p99 ms | PG 2 nodes req/s | p50 ms | p99 ms | 2 nodes / 1 node | PG 1 node / SQLite |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...sqlite.scenarios.map((s) => {
      const one = byKey(pg1, s.key);
      const two = byKey(pg2, s.key);
      return `| ${s.label} | ${s.concurrency} | ${cell(s)} | ${cell(one)} | ${cell(two)} | ${fmtX(two.result.rps / one.result.rps)} | ${fmtX(one.result.rps / s.result.rps)} |`;
    }),
    '',
    'Ratios of each group (geometric means over its requests); the last column is the same ratio of requests per',
    'CPU-second of the app node(s) and PostgreSQL together (the client and the rest of the machine left out), which',
    "other users' load moves less than req/s:",
    '',
    '| group | 2 nodes / 1 node, req/s | PG 1 node / SQLite, req/s | PG 2 nodes / SQLite, req/s | 2 nodes / 1 node, req per server CPU-second |',
    '|---|---|---|---|---|',
    // with --only, a group counts the requests that ran; a group with none is left out
    ...GROUPS.filter((g) => g.keys.some((k) => sqlite.scenarios.some((x) => x.key === k))).map((g) => {
      const ran = g.keys.filter((k) => sqlite.scenarios.some((x) => x.key === k));
      const ratio = (a: AppBench, b: AppBench, f = (s: Scenario) => s.result.rps) =>
        geomean(ran.map((k) => f(byKey(a, k)) / f(byKey(b, k))));
      return `| ${g.name} | ${fmtX(ratio(pg2, pg1))} | ${fmtX(ratio(pg1, sqlite))} | ${fmtX(ratio(pg2, sqlite))} | ${fmtX(ratio(pg2, pg1, perCoreSecond))} |`;
    }),
    '',
    "Where the CPU went during the rounds, in cores (of the machine's " +
      `${os.cpus().length}): load client / app node(s) / PostgreSQL (postmaster and all its processes) / everything else on the machine / idle.`,
    '',
    '| request | SQLite | PG 1 node | PG 2 nodes | req per server CPU-second: SQLite / PG 1 node / PG 2 nodes |',
    '|---|---|---|---|---|',
    ...sqlite.scenarios.map((s) => {
      const one = byKey(pg1, s.key);
      const two = byKey(pg2, s.key);
      const eff = [s, one, two].map((x) => fmtRate(perCoreSecond(x))).join(' / ');
      return `| ${s.label} | ${split(s.cpu)} | ${split(one.cpu)} | ${split(two.cpu)} | ${eff} |`;
    }),
    '',
    "What PostgreSQL's sessions of the bench database were doing (pg_stat_activity every 50 ms: the average number",
    'of sessions in each state; "on CPU" is running or waiting for a core), and the average number of ungranted locks:',
    '',
    '| request | PG 1 node | PG 2 nodes |',
    '|---|---|---|',
    ...sqlite.scenarios.map(
      (s) => `| ${s.label} | ${waitsOf(byKey(pg1, s.key))} | ${waitsOf(byKey(pg2, s.key))} |`,
    ),
  ];
  return lines;
}
