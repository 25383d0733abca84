// A banned account is not paid: its pending proofs cannot be approved (single, bulk, appeal,
// auto-approval) nor its withdrawals paid out, while rejecting stays possible; and a ban racing an
// approval never lets the payment land after the ban committed, on nodes sharing one database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { openApp } from '../../bootstrap';
import { runDoctor } from '../../cli/doctor';
import { readConfig } from '../../config';
import { isPostgres } from '../../db/dialect';
import { DataFolder } from '../../storage/data-folder';
import { sharedDatabase } from '../../testing/cluster';
import { makeUser } from '../../testing/factories';
import { burst, fund, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createAdminTestApp, sessionToken, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { runMoneyChecks } from './doctor';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  ({ t, adminToken } = await createAdminTestApp());
});
afterAll(async () => {
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  await t.dispose();
});

const APPROVE = { status: 'approved', feedback: 'Tamamdır' };
const REJECT = { status: 'rejected', feedback: 'Yasaklı hesap', rejectionReason: 'no_share' };
const REASON = 'Sahte hesaplarla ödül toplama';

async function bannedWorker(balance = 250): Promise<UserRow> {
  const user = await makeUser(t.deps.db);
  if (balance > 0) await fund(t.deps.db, user._id, balance);
  return user;
}
const ban = (db: TestApp['deps']['db'], userId: string) =>
  db.updateTable('users').set({ status: 'banned', ban_reason: REASON }).where('_id', '=', userId).execute();
const money = async (db: TestApp['deps']['db'], userId: string) => ({
  user: await db
    .selectFrom('users')
    .select(['balance', 'total_earned'])
    .where('_id', '=', userId)
    .executeTakeFirstOrThrow(),
  ledger: await db.selectFrom('ledger').selectAll().where('user_id', '=', userId).execute(),
  submissions: await db
    .selectFrom('submissions')
    .select(['_id', 'status'])
    .where('user_id', '=', userId)
    .execute(),
  withdrawals: await db
    .selectFrom('withdrawals')
    .select(['_id', 'status'])
    .where('user_id', '=', userId)
    .execute(),
});
function expectBanned(res: { status: number; body: { error: { code: string; banReason?: string } } }) {
  expect(res.status).toBe(409);
  expect(res.body.error.code).toBe('user_banned');
  expect(res.body.error.banReason).toBe(REASON);
}

describe('a banned account', () => {
  it('is not paid for a proof approved by hand (a balance of 2.50 stays 2.50); the proof may be rejected', async () => {
    const user = await bannedWorker(250);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward: 300 });
    await ban(t.deps.db, user._id);
    const before = await money(t.deps.db, user._id);
    const res = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      token: adminToken,
      body: APPROVE,
      headers: { 'Idempotency-Key': `banned-approve-${submissionId}` },
    });
    expectBanned(res);
    expect(await money(t.deps.db, user._id)).toEqual(before);
    expect(before.user.balance).toBe(250);
    const rejected = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      token: adminToken,
      body: REJECT,
    });
    expect(rejected.status).toBe(200);
    expect((await money(t.deps.db, user._id)).user.balance).toBe(250);
  });

  it('is not paid out: approving a withdrawal is 409 user_banned, rejecting refunds it', async () => {
    const user = await bannedWorker(10_000);
    const id = await makeWithdrawal(t.deps.db, user._id, { amount: 6_000 });
    await ban(t.deps.db, user._id);
    const before = await money(t.deps.db, user._id);
    expectBanned(await t.call('PUT', `/api/admin/withdraws/${id}/approve`, { token: adminToken, body: {} }));
    expect(await money(t.deps.db, user._id)).toEqual(before);
    const rejected = await t.call('PUT', `/api/admin/withdraws/${id}/reject`, {
      token: adminToken,
      body: { reason: 'Hesap yasaklandı' },
    });
    expect(rejected.status).toBe(200);
    expect((await money(t.deps.db, user._id)).user.balance).toBe(10_000);
  });

  it('is not paid by an overturned appeal; the appeal may be upheld', async () => {
    const user = await bannedWorker(0);
    const token = await t.tokenFor(user);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward: 500 });
    await t.call('PUT', `/api/submissions/${submissionId}/review`, { token: adminToken, body: REJECT });
    const appealed = await t.call('POST', `/api/submissions/${submissionId}/appeal`, {
      token,
      body: { message: 'Paylaşımı yaptım' },
    });
    expect(appealed.status).toBe(201);
    await ban(t.deps.db, user._id);
    const before = await money(t.deps.db, user._id);
    const decide = (decision: string) =>
      t.call('PUT', `/api/admin/submissions/${submissionId}/appeal`, {
        token: adminToken,
        body: { decision, response: 'Karar' },
      });
    expectBanned(await decide('overturn'));
    expect(await money(t.deps.db, user._id)).toEqual(before);
    expect((await decide('uphold')).status).toBe(200);
  });

  it('gets user_banned per item in a bulk approval while the others are approved', async () => {
    const banned = await bannedWorker(0);
    const worker = await makeUser(t.deps.db);
    const a = await makePendingSubmission(t.deps.db, banned._id, { reward: 700 });
    const b = await makePendingSubmission(t.deps.db, worker._id, { reward: 800 });
    await ban(t.deps.db, banned._id);
    const res = await t.call('PUT', '/api/admin/submissions/review', {
      token: adminToken,
      body: { ids: [a.submissionId, b.submissionId], ...APPROVE },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      results: [
        { _id: a.submissionId, result: 'user_banned' },
        { _id: b.submissionId, result: 'approved' },
      ],
      counts: { user_banned: 1, approved: 1 },
    });
    expect((await money(t.deps.db, banned._id)).user.balance).toBe(0);
    expect((await money(t.deps.db, worker._id)).user.balance).toBe(800);

    // withdrawals alike: the banned one refused, the other paid out
    const payee = await makeUser(t.deps.db);
    await fund(t.deps.db, payee._id, 9_000);
    await fund(t.deps.db, banned._id, 9_000);
    const w1 = await makeWithdrawal(t.deps.db, banned._id, { amount: 5_000 });
    const w2 = await makeWithdrawal(t.deps.db, payee._id, { amount: 5_000 });
    const paid = await t.call('PUT', '/api/admin/withdraws/review', {
      token: adminToken,
      body: { ids: [w1, w2], status: 'approved' },
    });
    expect(paid.body.data.counts).toEqual({ user_banned: 1, approved: 1 });
    const states = await t.deps.db
      .selectFrom('withdrawals')
      .select(['_id', 'status'])
      .where('_id', 'in', [w1, w2])
      .execute();
    expect(Object.fromEntries(states.map((s) => [s._id, s.status]))).toEqual({
      [w1]: 'pending',
      [w2]: 'approved',
    });
  });

  it('a suspended account is still paid by a person (the ban is what stops money)', async () => {
    const user = await makeUser(t.deps.db, { status: 'suspended' });
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward: 300 });
    const res = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      token: adminToken,
      body: APPROVE,
    });
    expect(res.status).toBe(200);
    expect((await money(t.deps.db, user._id)).user.balance).toBe(300);
  });
});

describe('a ban racing an approval, on two nodes sharing one database', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let nodes: Awaited<ReturnType<typeof openApp>>[];
  let apps: ReturnType<typeof createApp>[];
  let admins: string[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'taskreward-ban-race-'));
    database = await sharedDatabase();
    const config = readConfig({ DATA_DIR: dir, ...database.env });
    nodes = [await openApp(config, { web: new Map() }), await openApp(config, { web: new Map() })];
    apps = nodes.map((n) => createApp(n.deps));
    const one = await makeUser(nodes[0].deps.db, { role: 'admin', name: 'Admin One' });
    const two = await makeUser(nodes[0].deps.db, { role: 'admin', name: 'Admin Two' });
    admins = [await sessionToken(nodes[0].deps, one), await sessionToken(nodes[1].deps, two)];
  });
  afterAll(async () => {
    expect(await runDoctor(new DataFolder(dir), { databaseUrl: database.env.DATABASE_URL ?? null })).toEqual(
      [],
    );
    for (const node of nodes) await node.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (node: number, method: string, path: string, body: unknown) => {
    const res = await apps[node].request(path, {
      method,
      headers: { Authorization: `Bearer ${admins[node]}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const banThrough = (node: number, user: UserRow) =>
    call(node, 'PUT', `/api/admin/users/${user._id}`, {
      name: user.name,
      email: user.email,
      role: 'user',
      status: 'banned',
      banReason: REASON,
    });

  it('refuses the approval whose transaction sees the ban committed while it waited', async () => {
    const db = nodes[0].deps.db;
    const user = await makeUser(db);
    await fund(db, user._id, 250);
    const { submissionId } = await makePendingSubmission(db, user._id, { reward: 300 });
    const w = await makeUser(db);
    await fund(db, w._id, 5_000);
    const withdrawal = await makeWithdrawal(db, w._id, { amount: 5_000 });
    // on SQLite one process is one node: a second connection to the file would wait for the held
    // write lock synchronously, blocking the process that is to commit it
    const other = isPostgres(db) ? 1 : 0;
    for (const [target, approve] of [
      [user, () => call(other, 'PUT', `/api/submissions/${submissionId}/review`, APPROVE)],
      [w, () => call(other, 'PUT', `/api/admin/withdraws/${withdrawal}/approve`, {})],
    ] as const) {
      // the ban's transaction holds the account's row, uncommitted, while the approval starts
      let commit!: () => void;
      const held = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let banned!: () => void;
      const inside = new Promise<void>((resolve) => {
        banned = resolve;
      });
      const banTx = db.transaction().execute(async (tx) => {
        await tx
          .updateTable('users')
          .set({ status: 'banned', ban_reason: REASON })
          .where('_id', '=', target._id)
          .execute();
        banned();
        await held;
      });
      await inside;
      const approval = approve();
      if (isPostgres(db)) {
        // until the approval waits on the account's row lock
        for (let i = 0; i < 200; i++) {
          const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
          if (waiting.rows[0].n > 0) break;
          await new Promise((r) => setTimeout(r, 10));
        }
      } else await new Promise((r) => setTimeout(r, 50));
      commit();
      await banTx;
      expectBanned(await approval);
    }
    expect((await money(db, user._id)).user.balance).toBe(250);
    expect(await money(db, w._id)).toMatchObject({ withdrawals: [{ status: 'pending' }] });
  });

  it('released together over many rounds: either refused after the ban or paid before it, never torn', async () => {
    const db = nodes[0].deps.db;
    // as above: on SQLite the approvals race the ban inside the one process that serves the
    // folder; two connections in one process would block each other synchronously
    const other = isPostgres(db) ? 1 : 0;
    const outcomes = { refused: 0, paid: 0 };
    for (let round = 0; round < 16; round++) {
      const user = await makeUser(db);
      await fund(db, user._id, 250);
      const proofs = await Promise.all(
        [0, 1, 2].map(() => makePendingSubmission(db, user._id, { reward: 300 })),
      );
      // node 0 bans while the other node approves the account's three proofs, all released at once
      const [banned, ...approvals] = await burst(4, (i) =>
        i === 0
          ? banThrough(0, user)
          : call(other, 'PUT', `/api/submissions/${proofs[i - 1].submissionId}/review`, APPROVE),
      );
      expect(banned.status).toBe(200);
      const after = await money(db, user._id);
      let paid = 0;
      for (const [i, res] of approvals.entries()) {
        const row = after.submissions.find((s) => s._id === proofs[i].submissionId)!;
        if (res.status === 200) {
          expect(row.status).toBe('approved');
          paid++;
        } else {
          expectBanned(res);
          expect(row.status).toBe('pending');
        }
      }
      expect(after.user.balance).toBe(250 + paid * 300);
      expect(after.ledger.filter((l) => l.kind === 'reward')).toHaveLength(paid);
      outcomes.paid += paid;
      outcomes.refused += approvals.length - paid;
      // the account stays banned, and nothing more is paid to it
      const again = await call(other, 'PUT', `/api/submissions/${proofs[0].submissionId}/review`, APPROVE);
      expect(again.status).toBe(409);
    }
    console.log(
      `ban vs approvals over 16 rounds: ${outcomes.paid} paid before the ban, ${outcomes.refused} refused`,
    );
  });
});
