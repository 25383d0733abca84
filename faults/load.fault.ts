// Load: 64 clients (58 users, 6 admins) run a seeded random mix of every user and
// admin operation against the real built server for a while (FAULTS_FULL=1: 3 minutes;
// otherwise about 25 s). No answer may be a 5xx; racing reviews and payout decisions may
// change a thing once; Idempotency-Key replays get the first reply. Then the server stops
// cleanly, `doctor` must pass, and the database must hold exactly the money the clients saw
// acknowledged (load-checks.ts). A failure prints the seed: FAULTS_SEED=<seed> replays the
// same choices (the interleaving of 64 clients still differs run to run).
// FAULTS_POSTGRES=1 runs it on a fresh PostgreSQL database of TEST_DATABASE_URL instead;
// with FAULTS_NODES=3 as well, on three app nodes sharing that database and one bucket, the
// clients spread across them (the kills are multinode.fault.ts's).
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { type RequestSpec, runLoad, send } from '../bench/load';
import { startS3Server } from '../src-server/testing/s3-server';
import { faultDatabase } from './fault-database';
import { type Actor, ADMIN_ACTORS, AdminActor, UserActor } from './load-actors';
import { checkMoney } from './load-checks';
import { type Account, LoadFailure, parseReply, type Reply, toKurus, World } from './load-world';
import { FULL, prng, scaled, seedFromEnv } from './scale';
import { ADMIN, SERVER_ENTRY, type ServerProcess, startServerProcess } from './server';

const CLIENTS = 64;
const ADMINS = ADMIN_ACTORS;
const SPARES = 4;
const DURATION_MS = scaled(180_000, 25_000);
const SETUP_TASKS = 30;

/**
 * The variants an operation takes by chance (a replay after a success, a racing pair, a target
 * that exists by then): the short run on a slow machine may miss one; the full run may not.
 * Every other kind is in the actors' first round (their tour), so every run does it.
 */
const BY_CHANCE = [
  'login (wrong)',
  'review (keyed)',
  'review (replay)',
  'review (again)',
  'review (racing pair)',
  'review (invalid)',
  'withdrawal decide',
  'withdrawal decide (keyed)',
  'withdrawal decide (replay)',
  'withdrawal (racing pair)',
  'withdraw (keyed)',
  'withdraw (replay)',
  'withdraw (racing key)',
  'withdraw (key reused)',
  'user delete',
  'user unban',
];

/** Every kind of operation the actors do. */
const OPERATIONS = [
  'login',
  'login (wrong)',
  'register',
  'tasks list',
  'tasks list (visitor)',
  'task detail',
  'task start',
  'task restart',
  'submission upload',
  'my tasks',
  'my submissions',
  'my withdrawals',
  'my completed tasks',
  'me',
  'profile update',
  'profile photo',
  'withdraw',
  'withdraw (keyed)',
  'withdraw (replay)',
  'withdraw (racing key)',
  'withdraw (key reused)',
  'settings get',
  'admin call by a user',
  'admin submissions',
  'review',
  'review (keyed)',
  'review (replay)',
  'review (again)',
  'review (racing pair)',
  'review (invalid)',
  'admin withdrawals',
  'withdrawal decide',
  'withdrawal decide (keyed)',
  'withdrawal decide (replay)',
  'withdrawal (racing pair)',
  'task create',
  'task update',
  'task feature',
  'task delete',
  'admin user detail',
  'user balance edit',
  'user ban',
  'user suspend',
  'user unban',
  'user role edit',
  'user edit',
  'user edit (invalid)',
  'user edit (email)',
  'user delete',
  'admin /api/admin/users',
  'admin /api/admin/users/:id',
  'admin /api/admin/users/:id/submissions',
  'admin /api/admin/users/:id/withdrawals',
  'admin /api/admin/withdraws',
  'admin /api/admin/submissions',
  'admin /api/admin/submissions/recent',
  'admin /api/submissions',
  'admin /api/tasks',
  'admin /api/admin/stats',
  'admin /api/admin/stats/today',
  'settings update',
  'settings logo',
  'settings favicon',
  'send notification',
];

// The run serves and checks with a copy of the bundle taken at its start (beside the original,
// so its modules resolve the same): a rebuild during a 3-minute run (a new migration, say)
// would otherwise have `doctor` judge this run's database by another version.
const BUNDLE = SERVER_ENTRY.replace(/main\.cjs$/, `load-run-${process.pid}.cjs`);

/** `doctor` over a data folder with the run's bundle (as runDoctor in server.ts does with the current one). */
function runDoctor(dataDir: string, env: Record<string, string>): { status: number; output: string } {
  const res = spawnSync(process.execPath, [BUNDLE, 'doctor'], {
    env: { ...process.env, ...env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { status: res.status ?? -1, output: `${res.stdout}${res.stderr}` };
}

let server: ServerProcess | undefined;
const others: ServerProcess[] = [];
const NODES = Math.max(1, Number.parseInt(process.env.FAULTS_NODES ?? '1', 10) || 1);
const database = faultDatabase();
let bucket: Awaited<ReturnType<typeof startS3Server>> | undefined;
afterAll(async () => {
  await server?.kill();
  for (const o of others) await o.kill();
  await bucket?.close();
  rmSync(BUNDLE, { force: true });
  await database.drop();
});

it(`${CLIENTS} clients run a random mix of every operation for ${DURATION_MS / 1000} s: no 5xx, no money lost or doubled`, async () => {
  const seed = seedFromEnv();
  console.log(`load: seed ${seed} (FAULTS_SEED=${seed} replays it)${FULL ? ', full length' : ', reduced'}`);
  const build = spawnSync(process.execPath, ['build/build.mjs', '--if-needed'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
  copyFileSync(SERVER_ENTRY, BUNDLE);
  const engineEnv = await database.env();
  if (NODES > 1) {
    if (!engineEnv.DATABASE_URL)
      throw new Error('FAULTS_NODES needs FAULTS_POSTGRES=1 (nodes share a PostgreSQL)');
    bucket = await startS3Server({ bucket: 'taskreward-load' });
    Object.assign(engineEnv, bucket.env);
  }
  console.log(`load: on ${engineEnv.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, ${NODES} node(s)`);
  const srv = await startServerProcess({
    env: { TRUST_PROXY: '1', ...engineEnv },
    command: { file: process.execPath, args: [BUNDLE, 'serve'] },
  });
  server = srv;
  for (let i = 1; i < NODES; i++) {
    others.push(
      await startServerProcess({
        env: { TRUST_PROXY: '1', ...engineEnv },
        command: { file: process.execPath, args: [BUNDLE, 'serve'] },
      }),
    );
  }
  const world = new World({ url: srv.url, seed, serverLog: () => srv.log() });
  // no keep-alive beside the loop: a socket idle there for the server's 5 s keep-alive timeout
  // could be reused just as the server closes it (an ECONNRESET of the client's own making)
  world.sideAgent = new http.Agent({ keepAlive: false });

  // ---- setup: accounts, admins, tasks, some starting balances ----
  let setupIp = 0;
  const setup = async (spec: RequestSpec, token?: string, expected = [200, 201]): Promise<Reply> => {
    setupIp++;
    const headers: Record<string, string> = {
      'X-Forwarded-For': `10.8.${setupIp >> 8}.${(setupIp & 255) + 1}`,
      ...(typeof spec.body === 'string' ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    };
    const reply = parseReply(await send(srv.url, { ...spec, headers }, world.sideAgent));
    if (!expected.includes(reply.status)) throw world.failure(`setup: ${reply.status}`, [], spec, reply);
    return reply;
  };
  const admin0 = await setup({
    method: 'POST',
    path: '/api/auth/login',
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  const adminToken: string = admin0.json.token;
  const tokens = new Map<string, string>();
  const first: Account = {
    id: admin0.json.data._id,
    email: ADMIN.email,
    password: ADMIN.password,
    name: ADMIN.name,
    kind: 'admin',
  };
  tokens.set(first.id, adminToken);
  world.admins.push(first);
  world.accounts.push(first);
  const register = async (i: number, kind: Account['kind']): Promise<Account> => {
    const a = { email: `${kind}-${i}@load.test`, password: `${kind}-pass-${i}`, name: `Load ${kind} ${i}` };
    const r = await setup({ method: 'POST', path: '/api/auth/register', body: JSON.stringify(a) });
    const account: Account = { ...a, id: r.json.data._id, kind };
    tokens.set(account.id, r.json.token);
    return account;
  };
  const userCount = CLIENTS - ADMINS;
  const registered: Account[] = [];
  const plan: [number, Account['kind']][] = [
    ...Array.from({ length: ADMINS - 1 }, (_, i) => [i, 'admin'] as [number, Account['kind']]),
    ...Array.from({ length: userCount }, (_, i) => [i, 'actor'] as [number, Account['kind']]),
    ...Array.from({ length: SPARES }, (_, i) => [i, 'spare'] as [number, Account['kind']]),
  ];
  for (let i = 0; i < plan.length; i += 8)
    registered.push(...(await Promise.all(plan.slice(i, i + 8).map(([n, k]) => register(n, k)))));
  for (const a of registered) {
    world.accounts.push(a);
    if (a.kind !== 'admin') continue;
    await setup(
      {
        method: 'PUT',
        path: `/api/admin/users/${a.id}`,
        body: JSON.stringify({ name: a.name, email: a.email, role: 'admin' }),
      },
      adminToken,
    );
    world.admins.push(a);
  }
  const setupRand = prng(seed ^ 0x5eed);
  for (let i = 0; i < SETUP_TASKS; i++) {
    const body = {
      title: `Başlangıç görevi ${i}`,
      description: `Setup task ${i}`,
      reward: (1 + Math.floor(setupRand() * 3000)) / 100,
      maxCompletions: i % 5 === 0 ? 2 : 500,
      category: ['survey', 'video', 'review', 'game'][i % 4],
      automaticComments: i % 3 === 0 ? ['Süper', 'Harika', 'Güzel'] : undefined,
      isFeatured: i % 7 === 0,
    };
    const r = await setup({ method: 'POST', path: '/api/tasks', body: JSON.stringify(body) }, adminToken);
    world.tasks.push({ id: r.json.data._id, deleted: false });
  }
  for (const a of registered.filter((x) => x.kind === 'actor' && setupRand() < 0.5)) {
    const balance = (5000 + Math.floor(setupRand() * 10000)) / 100;
    await setup(
      {
        method: 'PUT',
        path: `/api/admin/users/${a.id}`,
        body: JSON.stringify({ name: a.name, email: a.email, balance }),
      },
      adminToken,
    );
    world.money.balanceEdits++;
    world.money.balanceEditsByUser.set(a.id, 1);
  }
  const adminIds = new Set(world.admins.map((a) => a.id));

  // ---- the load ----
  const actors: Actor[] = [];
  const actorAccounts = [...world.admins, ...registered.filter((a) => a.kind === 'actor')];
  expect(actorAccounts).toHaveLength(CLIENTS);
  for (const [w, account] of actorAccounts.entries()) {
    const r = prng((seed + Math.imul(w + 1, 0x9e3779b1)) >>> 0);
    const actor =
      account.kind === 'admin' ? new AdminActor(world, w, r, account) : new UserActor(world, w, r, account);
    actor.token = tokens.get(account.id) ?? '';
    actors.push(actor);
  }
  for (const a of actors) a.start();
  const result = await runLoad({
    url: [srv.url, ...others.map((o) => o.url)],
    concurrency: CLIENTS,
    durationMs: DURATION_MS,
    next: (_i, w) => actors[w].nextSpec(),
    onAnswer: (answer, spec, w) => actors[w].deliver(answer, spec),
  }).catch(async (err: unknown) => {
    if (err instanceof LoadFailure) throw await withServerErrors(err, srv);
    // a refused or reset connection: the server died or dropped a client
    const state = srv.child.exitCode ?? srv.child.signalCode ?? 'still running';
    throw world.failure(`a connection failed (${err}); the server process: ${state}`, []);
  });
  await world.settle();
  const [failed] = world.failures;
  if (failed !== undefined)
    throw failed instanceof LoadFailure ? await withServerErrors(failed, srv) : failed;
  const peak = srv.peakRss();

  // the API's own figure agrees with the clients before the stop
  const stats = await setup({ path: '/api/admin/stats' }, adminToken);
  const seenRewards = [...world.money.rewards.values()].reduce((a, r) => a + r.kurus, 0);
  world.sideAgent.destroy();

  await srv.stop();
  server = undefined;
  for (const o of others.splice(0)) await o.stop();
  const doctor = runDoctor(srv.dataDir, engineEnv);
  const { problems, totals } = await checkMoney(
    engineEnv.DATABASE_URL ? { url: engineEnv.DATABASE_URL } : { file: join(srv.dataDir, 'taskreward.db') },
    world.money,
    adminIds,
  );

  const statuses = world.counters.statuses();
  const missing = OPERATIONS.filter((op) => !world.counters.byOp.has(op));
  const missingRequired = missing.filter((op) => FULL || !BY_CHANCE.includes(op));
  const m = world.money;
  console.log(
    [
      `load: ${CLIENTS} clients (${ADMINS} admins) for ${result.seconds.toFixed(1)} s, seed ${seed}`,
      `  requests ${world.counters.requests} (loop ${result.requests}, ${result.rps.toFixed(0)} rps), p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, max ${result.max.toFixed(0)} ms`,
      `  statuses ${JSON.stringify(statuses)}`,
      `  peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB`,
      '  operations (by status and code):',
      world.counters.table(),
      `  money: ${totals.rewardRows} rewards ${(totals.rewards / 100).toFixed(2)} TL (clients saw ${m.rewards.size}, ${(seenRewards / 100).toFixed(2)} TL); ` +
        `${totals.holdRows} withdrawals held ${(totals.holds / 100).toFixed(2)} TL (clients saw ${m.withdrawals.size}); ` +
        `${totals.refundRows} refunds ${(totals.refunds / 100).toFixed(2)} TL (admins rejected ${m.rejectedWithdrawals.size}, approved ${m.approvedWithdrawals.size}); ` +
        `${totals.adjustmentRows} adjustments ${(totals.adjustments / 100).toFixed(2)} TL (${m.balanceEdits} balance edits acknowledged); ` +
        `balances of ${totals.users} users ${(totals.balances / 100).toFixed(2)} TL`,
      `  submissions ${JSON.stringify(totals.submissions)}, withdrawals ${JSON.stringify(totals.withdrawals)}`,
      `  doctor: exit ${doctor.status}`,
      `  operations not exercised: ${missing.length > 0 ? missing.join(', ') : 'none'}`,
    ].join('\n'),
  );

  const replay = `seed ${seed} (FAULTS_SEED=${seed})`;
  expect(world.counters.serverErrors(), replay).toEqual([]);
  expect(doctor.status, `${replay}\n${doctor.output}`).toBe(0);
  expect(problems, replay).toEqual([]);
  expect(toKurus(stats.json.data.totalRewards), replay).toBe(seenRewards);
  // the mix did what it is for: every operation ran, money moved every way
  expect(missingRequired, replay).toEqual([]);
  expect(m.rewards.size, replay).toBeGreaterThan(0);
  expect(m.rejectedSubmissions.size, replay).toBeGreaterThan(0);
  expect(m.withdrawals.size, replay).toBeGreaterThan(0);
  expect(m.approvedWithdrawals.size + m.rejectedWithdrawals.size, replay).toBeGreaterThan(0);
});

/**
 * A 500's error line reaches the server's output a moment after its answer reached the client,
 * so the failure's log tail often ends before it: read the output again once it is in.
 */
async function withServerErrors(err: LoadFailure, srv: ServerProcess): Promise<LoadFailure> {
  await sleep(300);
  const errors = srv
    .log()
    .split('\n')
    .filter((line) => /"level":"(error|fatal)"/.test(line))
    .slice(-5);
  if (errors.length > 0) err.message += `\nserver log (its errors):\n${errors.join('\n')}`;
  return err;
}
