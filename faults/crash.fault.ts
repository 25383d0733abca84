// Crash: the real server is killed with SIGKILL at random moments while admins approve
// and reject submissions and withdrawals and users request withdrawals, many times in a row.
// After each kill: every acknowledged write is in the database, every request in flight at the
// kill is either wholly done or not at all, the money matches the suite's own model to the
// kuruş, and the real `doctor` passes. Each restart must take over the dead server's lock.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  call,
  idemKey,
  pngProof,
  type Reply,
  type Snapshot,
  seedPendingSubmissions,
  seedStartedTasks,
  snapshot,
  uploadProof,
} from './crash-helpers';
import { FULL, prng, scaled, seedFromEnv } from './scale';
import { ADMIN, freshDataDir, runDoctor, type ServerProcess, startServerProcess } from './server';

const CYCLES = scaled(60, 6);
const USERS = scaled(10, 6);
const API_TASKS = scaled(4, 3);
/** Pending submissions topped up (seeded while the server is down) before each cycle. */
const POOL = scaled(260, 160);
const KILL_AFTER_MS: [number, number] = FULL ? [150, 2500] : [250, 1500];
const REVIEWERS = 3;

type Kind = 'upload' | 'approve' | 'reject' | 'withdraw' | 'wapprove' | 'wreject';
const KINDS: Kind[] = ['upload', 'approve', 'reject', 'withdraw', 'wapprove', 'wreject'];
/** Started tasks kept in hand per user (seeded between lives) for proofs sent under the kills. */
const STARTED_PER_USER = 12;

interface Op {
  kind: Kind;
  key: string;
  /** whose Idempotency-Key scope: the admin for reviews, the user for a withdrawal request */
  actorId: string;
  token: string;
  method: string;
  path: string;
  body: unknown;
  /** the submission or withdrawal reviewed; the requesting user for a withdrawal; the task of an upload */
  target: string;
  /** kuruş: a withdrawal's amount, an upload's reward */
  amount?: number;
}

interface Sub {
  userId: string;
  taskId: string;
  reward: number;
  state: 'pending' | 'approved' | 'rejected';
}
interface Wd {
  userId: string;
  amount: number;
  state: 'pending' | 'approved' | 'rejected';
}

const seed = seedFromEnv();
const random = prng(seed);
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let keyCounter = 0;
const newKey = (kind: Kind) => `crash-${seed}-${kind}-${++keyCounter}`;

// ---- the model ---------------------------------------------------------------------------
const subs = new Map<string, Sub>();
const wds = new Map<string, Wd>();
const users: { id: string; token: string }[] = [];
let adminId = '';
let adminToken = '';
/** pending and not under review right now */
let pendingSubs: string[] = [];
let pendingWds: string[] = [];
/** per user: started tasks waiting for a proof, and the submissions sent through the API */
const started = new Map<string, { taskId: string; reward: number }[]>();
const uploadedIds = new Set<string>();
/** every key whose request was answered: its outcome and (for a 2xx) the reply's JSON text */
const answered = new Map<string, { op: Op; outcome: 'acked' | 'refused'; text: string }>();

const counts = {
  cycles: 0,
  doctorRuns: 0,
  acked: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
  refused: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
  inFlight: Object.fromEntries(KINDS.map((k) => [k, { done: 0, notDone: 0 }])) as Record<
    Kind,
    { done: number; notDone: number }
  >,
  retries: { replayed: 0, fresh: 0, refused: 0 },
  seeded: 0,
  uploaded: 0,
  orphanProofsAfterKill: 0,
  killDelaysMs: [] as number[],
  lockTakeovers: 0,
  tempLeftoversCleared: 0,
};

function expectedMoney(userId: string): { balance: number; earned: number } {
  let earned = 0;
  let out = 0;
  for (const s of subs.values()) if (s.userId === userId && s.state === 'approved') earned += s.reward;
  for (const w of wds.values()) if (w.userId === userId && w.state !== 'rejected') out += w.amount;
  return { balance: earned - out, earned };
}

/** A 2xx (first-hand, a replay, or the stored reply of a request that was in flight) applied to the model. */
function apply(op: Op, data: Record<string, unknown> | undefined): void {
  if (op.kind === 'upload') {
    const id = String(data?._id);
    subs.set(id, { userId: op.actorId, taskId: op.target, reward: op.amount!, state: 'pending' });
    uploadedIds.add(id);
    pendingSubs.push(id);
  } else if (op.kind === 'approve' || op.kind === 'reject') {
    const s = subs.get(op.target)!;
    s.state = op.kind === 'approve' ? 'approved' : 'rejected';
    if (data?.status !== s.state) throw new Error(`review reply says ${String(data?.status)}: ${op.key}`);
  } else if (op.kind === 'withdraw') {
    const id = String(data?._id);
    if (Math.round(Number(data?.amount) * 100) !== op.amount)
      throw new Error(`withdrawal reply amount ${String(data?.amount)} for ${op.amount} kuruş`);
    wds.set(id, { userId: op.target, amount: op.amount!, state: 'pending' });
    pendingWds.push(id);
  } else {
    const w = wds.get(op.target)!;
    w.state = op.kind === 'wapprove' ? 'approved' : 'rejected';
    if (data?.status !== w.state) throw new Error(`withdrawal review reply says ${String(data?.status)}`);
  }
}

/** Back in the pool: an in-flight review that did not happen. */
function release(op: Op): void {
  if (op.kind === 'upload') started.get(op.actorId)!.push({ taskId: op.target, reward: op.amount! });
  if (op.kind === 'approve' || op.kind === 'reject') pendingSubs.push(op.target);
  if (op.kind === 'wapprove' || op.kind === 'wreject') pendingWds.push(op.target);
}

// ---- one cycle's clients -----------------------------------------------------------------
interface Cycle {
  url: string;
  agent: http.Agent;
  killing: boolean;
  inFlight: Op[];
  problems: string[];
}

const papara = {
  paymentMethod: 'papara',
  accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber: '1234567890' },
};

/** Sends one op; sorts its fate into acked, refused, in flight at the kill, or a problem. */
async function perform(cy: Cycle, op: Op): Promise<void> {
  let reply: Reply;
  try {
    reply = await Promise.race([
      op.kind === 'upload'
        ? uploadProof(cy.url, op.token, op.target, pngProof(keyCounter))
        : call(cy.url, op.method, op.path, { token: op.token, body: op.body, key: op.key, agent: cy.agent }),
      sleep(20_000).then(() => {
        throw new Error('no answer in 20 s');
      }),
    ]);
  } catch (err) {
    if (cy.killing) cy.inFlight.push(op);
    else cy.problems.push(`${op.kind} ${op.key} failed before the kill: ${(err as Error).message}`);
    return;
  }
  if (reply.status >= 200 && reply.status < 300) {
    if (reply.replayed) cy.problems.push(`${op.kind} ${op.key}: a first request answered as a replay`);
    // an upload carries no Idempotency-Key: its proof is the submission row itself
    if (op.kind !== 'upload') answered.set(op.key, { op, outcome: 'acked', text: reply.text });
    counts.acked[op.kind]++;
    try {
      apply(op, reply.body.data);
    } catch (err) {
      cy.problems.push((err as Error).message);
    }
  } else if (
    op.kind === 'withdraw' &&
    reply.status === 422 &&
    reply.body.error?.code === 'insufficient_balance'
  ) {
    answered.set(op.key, { op, outcome: 'refused', text: reply.text });
    counts.refused[op.kind]++;
  } else {
    cy.problems.push(`${op.kind} ${op.key}: unexpected ${reply.status} ${reply.text.slice(0, 300)}`);
    release(op);
  }
}

function reviewOp(id: string): Op {
  const approve = random() < 0.85;
  const kind: Kind = approve ? 'approve' : 'reject';
  return {
    kind,
    key: newKey(kind),
    actorId: adminId,
    token: adminToken,
    method: 'PUT',
    path: `/api/submissions/${id}/review`,
    body: approve
      ? { status: 'approved', feedback: 'Looks good' }
      : { status: 'rejected', feedback: 'No share was made', rejectionReason: 'no_share' },
    target: id,
  };
}

function withdrawalReviewOp(id: string): Op {
  const approve = random() < 0.6;
  const kind: Kind = approve ? 'wapprove' : 'wreject';
  return {
    kind,
    key: newKey(kind),
    actorId: adminId,
    token: adminToken,
    method: 'PUT',
    path: `/api/admin/withdraws/${id}/${approve ? 'approve' : 'reject'}`,
    body: approve ? {} : { reason: 'The account number does not match the name' },
    target: id,
  };
}

function takeRandom(list: string[]): string | undefined {
  if (list.length === 0) return undefined;
  const i = Math.floor(random() * list.length);
  const [id] = list.splice(i, 1);
  return id;
}

async function reviewer(cy: Cycle): Promise<void> {
  while (!cy.killing) {
    const id = takeRandom(pendingSubs);
    if (id === undefined) await sleep(20);
    else await perform(cy, reviewOp(id));
    await sleep(between(0, 8));
  }
}

async function withdrawalReviewer(cy: Cycle): Promise<void> {
  while (!cy.killing) {
    await sleep(between(5, 40));
    if (cy.killing) break;
    const id = takeRandom(pendingWds);
    if (id !== undefined) await perform(cy, withdrawalReviewOp(id));
  }
}

async function requester(cy: Cycle, user: { id: string; token: string }): Promise<void> {
  while (!cy.killing) {
    await sleep(between(20, 120));
    if (cy.killing) break;
    const mine = started.get(user.id)!;
    if (mine.length > 0 && random() < 0.4) {
      const [task] = mine.splice(Math.floor(random() * mine.length), 1);
      await perform(cy, {
        kind: 'upload',
        key: newKey('upload'),
        actorId: user.id,
        token: user.token,
        method: 'POST',
        path: '/api/submissions',
        body: null,
        target: task.taskId,
        amount: task.reward,
      });
      continue;
    }
    const { balance } = expectedMoney(user.id);
    let amount: number;
    if (random() < 0.1) amount = Math.max(balance + 1, 500) + between(0, 2000);
    else if (balance < 500) continue;
    else amount = between(500, Math.min(balance, 6000));
    await perform(cy, {
      kind: 'withdraw',
      key: newKey('withdraw'),
      actorId: user.id,
      token: user.token,
      method: 'POST',
      path: '/api/withdraws',
      body: { amount: amount / 100, ...papara },
      target: user.id,
      amount,
    });
  }
}

// ---- checks after a kill -----------------------------------------------------------------
/** Decides each in-flight request from the database: wholly done (then applied) or not at all. */
function resolveInFlight(s: Snapshot, inFlight: Op[], problems: string[]): Op[] {
  /** not done and worth a retry with their key (an upload not done goes back to its user's hand) */
  const notDone: Op[] = [];
  for (const op of inFlight) {
    if (op.kind === 'upload') {
      const rows = [...s.submissions].filter(([, r]) => r.user_id === op.actorId && r.task_id === op.target);
      const record = s.userTasks.get(`${op.actorId} ${op.target}`);
      if (rows.length > 1) problems.push(`in-flight upload ${op.key}: ${rows.length} submissions`);
      if (rows.length === 1) {
        const [id, row] = rows[0];
        if (row.status !== 'pending' || !row.proof_file || record !== 'completed' || row.reward !== op.amount)
          problems.push(`in-flight upload ${op.key} half done: ${JSON.stringify(row)}, record ${record}`);
        counts.inFlight.upload.done++;
        apply(op, { _id: id });
      } else {
        // not done: the record is still in progress, the slot still reserved
        if (record !== 'in_progress')
          problems.push(`in-flight upload ${op.key}: no submission, record ${record}`);
        counts.inFlight.upload.notDone++;
        release(op);
      }
      continue;
    }
    const stored = s.idempotency.get(idemKey(op.actorId, op.key));
    let done: boolean;
    if (op.kind === 'approve' || op.kind === 'reject') {
      const status = s.submissions.get(op.target)?.status;
      const want = op.kind === 'approve' ? 'approved' : 'rejected';
      done = status === want;
      if (status !== 'pending' && !done)
        problems.push(`in-flight ${op.kind} of ${op.target}: status ${status}`);
    } else if (op.kind === 'withdraw') {
      done = stored !== undefined;
      if (done) {
        const id = String((JSON.parse(stored!.body) as { data: { _id: string } }).data._id);
        const row = s.withdrawals.get(id);
        if (!row || row.amount !== op.amount || row.user_id !== op.target)
          problems.push(`in-flight withdraw ${op.key}: stored reply names ${id}, row ${JSON.stringify(row)}`);
      }
    } else {
      const status = s.withdrawals.get(op.target)?.status;
      const want = op.kind === 'wapprove' ? 'approved' : 'rejected';
      done = status === want;
      if (status !== 'pending' && !done)
        problems.push(`in-flight ${op.kind} of ${op.target}: status ${status}`);
    }
    // the stored reply commits with the move: one without the other is half done
    if (done !== (stored !== undefined))
      problems.push(`in-flight ${op.kind} ${op.key}: done=${done} but stored reply ${stored !== undefined}`);
    if (done && stored) {
      counts.inFlight[op.kind].done++;
      answered.set(op.key, { op, outcome: 'acked', text: stored.body });
      try {
        apply(op, (JSON.parse(stored.body) as { data: Record<string, unknown> }).data);
      } catch (err) {
        problems.push((err as Error).message);
      }
    } else {
      counts.inFlight[op.kind].notDone++;
      release(op);
      notDone.push(op);
    }
  }
  return notDone;
}

/** The database against the model: every row and every kuruş explained, nothing extra, nothing missing. */
function checkAgainstModel(s: Snapshot, problems: string[]): void {
  const p = (m: string) => problems.length < 50 && problems.push(m);
  if (s.submissions.size !== subs.size)
    p(`${s.submissions.size} submissions in the database, model ${subs.size}`);
  for (const [id, sub] of subs) {
    const row = s.submissions.get(id);
    if (!row) p(`submission ${id} missing`);
    else {
      if (row.status !== sub.state) p(`submission ${id}: ${row.status}, acknowledged ${sub.state}`);
      // sending the proof completes the record; an approval must leave it so
      if (row.user_task_status !== 'completed')
        p(`submission ${id} ${row.status} but its task record is ${row.user_task_status}`);
    }
  }
  for (const id of uploadedIds)
    if (!s.submissions.get(id)?.proof_file) p(`uploaded submission ${id} has no proof file`);
  for (const [userId, list] of started)
    for (const t of list)
      if (s.userTasks.get(`${userId} ${t.taskId}`) !== 'in_progress')
        p(`started task ${t.taskId} of ${userId} is not in progress`);
  if (s.withdrawals.size !== wds.size)
    p(`${s.withdrawals.size} withdrawals in the database, model ${wds.size}`);
  for (const [id, w] of wds) {
    const row = s.withdrawals.get(id);
    if (!row) p(`withdrawal ${id} missing`);
    else if (row.status !== w.state || row.amount !== w.amount || row.user_id !== w.userId)
      p(`withdrawal ${id}: ${JSON.stringify(row)}, model ${JSON.stringify(w)}`);
  }
  // the ledger: exactly the rows the model explains
  const expected = new Map<string, { user: string; amount: number }>();
  for (const [id, sub] of subs)
    if (sub.state === 'approved') expected.set(`reward ${id}`, { user: sub.userId, amount: sub.reward });
  for (const [id, w] of wds) {
    expected.set(`withdrawal_hold ${id}`, { user: w.userId, amount: -w.amount });
    if (w.state === 'rejected') expected.set(`withdrawal_refund ${id}`, { user: w.userId, amount: w.amount });
  }
  const seen = new Set<string>();
  const ledgerSum = new Map<string, number>();
  for (const row of s.ledger) {
    const k = `${row.kind} ${row.ref}`;
    ledgerSum.set(row.user_id, (ledgerSum.get(row.user_id) ?? 0) + row.amount);
    const want = expected.get(k);
    if (seen.has(k)) p(`ledger row ${row.id} doubles ${k}`);
    seen.add(k);
    if (!want) p(`ledger row ${row.id} (${k}, ${row.amount}) is explained by no acknowledged write`);
    else if (want.user !== row.user_id || want.amount !== row.amount)
      p(
        `ledger row ${row.id} (${k}): ${row.amount} to ${row.user_id}, expected ${want.amount} to ${want.user}`,
      );
  }
  for (const k of expected.keys()) if (!seen.has(k)) p(`ledger row ${k} missing`);
  let paidOut = 0;
  let rewarded = 0;
  for (const row of s.ledger) if (row.kind === 'reward') paidOut += row.amount;
  for (const sub of subs.values()) if (sub.state === 'approved') rewarded += sub.reward;
  if (paidOut !== rewarded) p(`rewards paid ${paidOut} kuruş, approved rewards ${rewarded}`);
  for (const u of users) {
    const want = expectedMoney(u.id);
    const row = s.users.get(u.id);
    if (!row || row.balance !== want.balance || row.total_earned !== want.earned)
      p(`user ${u.id}: ${JSON.stringify(row)}, model balance ${want.balance} earned ${want.earned}`);
    if (row && row.balance !== (ledgerSum.get(u.id) ?? 0))
      p(`user ${u.id}: balance ${row.balance}, ledger sum ${ledgerSum.get(u.id) ?? 0}`);
  }
  for (const [id, t] of s.tasks) {
    if (t.total_completed !== t.approved)
      p(`task ${id}: total_completed ${t.total_completed}, ${t.approved} approved`);
    if (t.reserved !== t.user_tasks - t.rejected)
      p(`task ${id}: reserved ${t.reserved}, ${t.user_tasks} started and ${t.rejected} rejected`);
  }
  // stored replies: one per acknowledged money write, the very reply the client got
  let acked = 0;
  for (const [key, a] of answered) {
    const stored = s.idempotency.get(idemKey(a.op.actorId, key));
    if (a.outcome === 'acked') {
      acked++;
      if (!stored) p(`acknowledged ${a.op.kind} ${key}: no stored reply`);
      else if (stored.body !== a.text)
        p(`acknowledged ${a.op.kind} ${key}: stored reply differs from the answer`);
    } else if (stored) p(`refused ${a.op.kind} ${key} has a stored reply`);
  }
  if (s.idempotency.size !== acked) p(`${s.idempotency.size} stored replies, ${acked} acknowledged writes`);
}

// ---- the run -----------------------------------------------------------------------------
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.kill();
});

async function start(dataDir: string, port: number): Promise<ServerProcess> {
  try {
    return await startServerProcess({ dataDir, port });
  } catch (err) {
    // the fixed port was taken by someone else meanwhile: any free one will do
    if (port !== 0 && /EADDRINUSE/.test((err as Error).message))
      return startServerProcess({ dataDir, port: 0 });
    throw err;
  }
}

async function setUp(url: string): Promise<void> {
  const login = await call(url, 'POST', '/api/auth/login', {
    body: { email: ADMIN.email, password: ADMIN.password },
  });
  expect(login.status, login.text).toBe(200);
  adminToken = login.body.token!;
  adminId = String(login.body.data?._id);
  const settings = await call(url, 'PUT', '/api/settings', {
    token: adminToken,
    body: { payment: { minimumPayout: 5 } },
  });
  expect(settings.status, settings.text).toBe(200);
  for (let i = 0; i < USERS; i++) {
    const reg = await call(url, 'POST', '/api/auth/register', {
      body: { name: `Kullanıcı ${i}`, email: `crash-${seed}-${i}@faults.test`, password: 'user-pass-1' },
    });
    expect(reg.status, reg.text).toBe(201);
    users.push({ id: String(reg.body.data?._id), token: reg.body.token! });
    started.set(String(reg.body.data?._id), []);
  }
  // real uploads: every user starts every API task and sends a proof image
  for (let t = 0; t < API_TASKS; t++) {
    const reward = between(500, 2500);
    const task = await call(url, 'POST', '/api/tasks', {
      token: adminToken,
      body: {
        title: `Uygulamayı değerlendir ${t}`,
        description: 'Ekran görüntüsü yükleyin',
        reward: reward / 100,
        maxCompletions: 100,
      },
    });
    expect(task.status, task.text).toBe(201);
    const taskId = String(task.body.data?._id);
    for (const u of users) {
      const started = await call(url, 'POST', `/api/tasks/${taskId}/start`, { token: u.token });
      expect(started.status, started.text).toBe(201);
      const up = await uploadProof(url, u.token, taskId, pngProof(t * 100 + users.indexOf(u)));
      expect(up.status, up.text).toBe(201);
      const id = String(up.body.data?._id);
      subs.set(id, { userId: u.id, taskId, reward, state: 'pending' });
      pendingSubs.push(id);
      uploadedIds.add(id);
      counts.uploaded++;
    }
  }
}

function topUp(dataDir: string): void {
  const missing = POOL - pendingSubs.length;
  const seeded = seedPendingSubmissions(
    dataDir,
    users.map((u) => u.id),
    Math.max(0, Math.ceil(missing / users.length)),
    () => between(500, 2500),
  );
  for (const s of seeded) {
    subs.set(s.id, { userId: s.userId, taskId: s.taskId, reward: s.reward, state: 'pending' });
    pendingSubs.push(s.id);
  }
  counts.seeded += seeded.length;
  const short = Math.max(...users.map((u) => STARTED_PER_USER - started.get(u.id)!.length));
  if (short > 0) {
    const tasks = seedStartedTasks(
      dataDir,
      users.map((u) => u.id),
      short,
      () => between(500, 2500),
    );
    for (const t of tasks) started.get(t.userId)!.push({ taskId: t.taskId, reward: t.reward });
  }
}

/** Resends the requests whose fate the kill hid, with their keys: a replay if done, done now if not. */
async function retry(url: string, ops: Op[], problems: string[]): Promise<void> {
  for (const op of ops) {
    // the model released it as not done; take it out of the pools again for the retry
    if (op.kind === 'approve' || op.kind === 'reject')
      pendingSubs = pendingSubs.filter((id) => id !== op.target);
    if (op.kind === 'wapprove' || op.kind === 'wreject')
      pendingWds = pendingWds.filter((id) => id !== op.target);
    const r = await call(url, op.method, op.path, { token: op.token, body: op.body, key: op.key });
    if (r.status >= 200 && r.status < 300) {
      if (r.replayed) problems.push(`retry of not-done ${op.kind} ${op.key} was answered as a replay`);
      counts.retries.fresh++;
      answered.set(op.key, { op, outcome: 'acked', text: r.text });
      try {
        apply(op, r.body.data);
      } catch (err) {
        problems.push((err as Error).message);
      }
    } else if (op.kind === 'withdraw' && r.status === 422 && r.body.error?.code === 'insufficient_balance') {
      counts.retries.refused++;
      answered.set(op.key, { op, outcome: 'refused', text: r.text });
    } else {
      problems.push(`retry of ${op.kind} ${op.key}: ${r.status} ${r.text.slice(0, 300)}`);
      release(op);
    }
  }
}

/** Replays of the in-flight requests that were done: the stored reply, moving nothing. */
async function replayDone(url: string, ops: Op[], problems: string[]): Promise<void> {
  for (const op of ops) {
    const r = await call(url, op.method, op.path, { token: op.token, body: op.body, key: op.key });
    const first = answered.get(op.key);
    if (!r.replayed || r.text !== first?.text)
      problems.push(`replay of done ${op.kind} ${op.key}: ${r.status} replayed=${r.replayed}`);
    else counts.retries.replayed++;
  }
}

function fail(problems: string[], dataDir: string, log: string): never {
  console.log(`crash suite FAILED, seed ${seed} (FAULTS_SEED=${seed} to replay), data folder ${dataDir}`);
  console.log(log.slice(-3000));
  throw new Error(`seed ${seed}: ${problems.length} problem(s):\n${problems.slice(0, 40).join('\n')}`);
}

it(`keeps every acknowledged write and no half-done one across ${CYCLES} SIGKILLs`, async () => {
  const began = Date.now();
  console.log(
    `crash suite: seed ${seed} (FAULTS_SEED=${seed} to replay), ${CYCLES} cycles, ${FULL ? 'full' : 'reduced'}`,
  );
  const dataDir = freshDataDir('taskreward-crash-');
  server = await start(dataDir, 0);
  const port = Number(new URL(server.url).port);
  await setUp(server.url);
  let lastLog = server.log();
  await server.stop();
  expect(runDoctor(dataDir).status).toBe(0);
  counts.doctorRuns++;

  let toRetry: Op[] = [];
  let toReplay: Op[] = [];
  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    const problems: string[] = [];
    topUp(dataDir);
    const leftover = join(dataDir, 'tmp', `leftover-${cycle}.part`);
    writeFileSync(leftover, 'half an upload from a killed server');
    const lockFile = join(dataDir, 'server.lock');
    const staleLock = existsSync(lockFile) ? readFileSync(lockFile, 'utf8').trim() : null;

    server = await start(dataDir, port);
    // the restarted server, idle yet: everything must be clean, crash left-overs included
    if (cycle > 1) {
      const doctor = runDoctor(dataDir);
      counts.doctorRuns++;
      if (doctor.status !== 0)
        problems.push(`doctor after the restart exited ${doctor.status}:\n${doctor.output}`);
    }
    if (existsSync(leftover)) problems.push('a temp file left by the killed server survived the restart');
    else counts.tempLeftoversCleared++;
    if (readFileSync(lockFile, 'utf8').trim() !== String(server.pid))
      problems.push(`the lock does not name the new server ${server.pid}`);
    else if (staleLock && staleLock !== String(server.pid)) counts.lockTakeovers++;

    await replayDone(server.url, toReplay, problems);
    await retry(server.url, toRetry, problems);

    const cy: Cycle = {
      url: server.url,
      agent: new http.Agent({ keepAlive: true, maxSockets: 64 }),
      killing: false,
      inFlight: [],
      problems,
    };
    const clients = [
      ...Array.from({ length: REVIEWERS }, () => reviewer(cy)),
      withdrawalReviewer(cy),
      ...users.map((u) => requester(cy, u)),
    ];
    const delay = between(...KILL_AFTER_MS);
    counts.killDelaysMs.push(delay);
    await sleep(delay);
    cy.killing = true;
    const killedPid = server.pid;
    await server.kill();
    lastLog = server.log();
    cy.agent.destroy();
    await Promise.all(clients);
    counts.cycles++;

    if (!existsSync(lockFile) || readFileSync(lockFile, 'utf8').trim() !== String(killedPid))
      problems.push('the killed server left no lock naming it (the take-over is not exercised)');
    const s = snapshot(dataDir);
    const notDone = resolveInFlight(s, cy.inFlight, problems);
    toRetry = notDone;
    toReplay = cy.inFlight.filter((op) => op.kind !== 'upload' && !notDone.includes(op));
    checkAgainstModel(s, problems);
    // before the restart only proofs caught between their file and their row may be reported
    const doctor = runDoctor(dataDir);
    counts.doctorRuns++;
    const findings = doctor.output.split('\n').filter((l) => /^[a-z_]+: /.test(l));
    const orphans = findings.filter((l) => /^orphan_file: stored file proofs\//.test(l));
    counts.orphanProofsAfterKill += orphans.length;
    if (findings.length !== orphans.length || (doctor.status !== 0) !== orphans.length > 0)
      problems.push(`doctor after the kill exited ${doctor.status}:\n${doctor.output}`);
    if (problems.length > 0) fail(problems, dataDir, lastLog);
  }

  // a last clean life: the last kill's requests are settled, then SIGTERM and a final check
  const problems: string[] = [];
  server = await start(dataDir, port);
  await replayDone(server.url, toReplay, problems);
  await retry(server.url, toRetry, problems);
  await server.stop();
  checkAgainstModel(snapshot(dataDir), problems);
  const doctor = runDoctor(dataDir);
  counts.doctorRuns++;
  if (doctor.status !== 0) problems.push(`doctor exited ${doctor.status}:\n${doctor.output}`);
  if (problems.length > 0) fail(problems, dataDir, server.log());
  server = null;
  // kept for a look when a check failed; removed once all passed
  rmSync(dataDir, { recursive: true, force: true });

  const inFlightTotal = KINDS.reduce((n, k) => n + counts.inFlight[k].done + counts.inFlight[k].notDone, 0);
  const money = { rewards: 0, held: 0, refunded: 0 };
  for (const sub of subs.values()) if (sub.state === 'approved') money.rewards += sub.reward;
  for (const w of wds.values()) {
    money.held += w.amount;
    if (w.state === 'rejected') money.refunded += w.amount;
  }
  const delays = [...counts.killDelaysMs].sort((a, b) => a - b);
  console.log(
    [
      `crash suite (${FULL ? 'full' : 'reduced'}) seed ${seed}: ${counts.cycles} SIGKILL cycles in ${((Date.now() - began) / 1000).toFixed(1)} s`,
      `  kill after ${delays[0]}–${delays[delays.length - 1]} ms (median ${delays[Math.floor(delays.length / 2)]})`,
      `  setup: ${USERS} users, ${counts.uploaded} real proof uploads; ${counts.seeded} pending submissions seeded between lives`,
      `  proofs uploaded under the kills: ${uploadedIds.size - counts.uploaded} (every one a real multipart PNG)`,
      `  acknowledged writes: ${KINDS.map((k) => `${k} ${counts.acked[k]}`).join(', ')}`,
      `  refused (422 insufficient balance, nothing moved): withdraw ${counts.refused.withdraw}`,
      `  in flight at a kill: ${inFlightTotal} (${KINDS.map((k) => `${k} ${counts.inFlight[k].done} done/${counts.inFlight[k].notDone} not`).join(', ')}); half done: 0`,
      `  retried with the same key after the restart: ${counts.retries.replayed} replayed (nothing moved), ${counts.retries.fresh} done then, ${counts.retries.refused} refused`,
      `  restarts: ${counts.lockTakeovers} stale locks taken over, ${counts.tempLeftoversCleared} temp left-overs cleared, ${counts.orphanProofsAfterKill} orphaned proofs (file written, row not) removed`,
      `  doctor runs: ${counts.doctorRuns} (after each kill and after each restart), all passed; money: ${money.rewards} kuruş rewarded, ${money.held} held, ${money.refunded} refunded; lost 0, doubled 0`,
    ].join('\n'),
  );
  expect(counts.cycles).toBe(CYCLES);
});
