import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createAdminTestApp, createTestApp, type TestApp } from '../../testing/test-app';
import { publicImageUrl } from '../files/file-urls';
import { runMoneyChecks } from '../money/doctor';
import { credit, debit } from '../money/ledger';
import { checkAppeals } from '../submissions/appeal-doctor';
import { submit } from '../submissions/submission-test-helpers';
import { checkTaskRecords } from '../tasks/task-doctor';
import { createTask, taskRow } from '../tasks/task-test-helpers';
import { checkDeletedUsers } from '../users/deleted-user-doctor';
import type { UserRow } from '../users/users.repository';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
beforeAll(async () => {
  ({ t, admin, adminToken } = await createAdminTestApp());
});
afterEach(async () => {
  // every ledger row the edits wrote explains a balance
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
});
afterAll(() => t.dispose());

const del = (id: string, token = adminToken, query = '') =>
  t.call('DELETE', `/api/admin/users/${id}${query}`, { token });
const row = (id: string) =>
  t.deps.db.selectFrom('users').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const ledger = (id: string) =>
  t.deps.db.selectFrom('ledger').select(['amount', 'kind', 'actor_id']).where('user_id', '=', id).execute();

describe('the last active admin', () => {
  let solo: TestApp;
  let only: UserRow;
  let token: string;
  beforeAll(async () => {
    solo = await createTestApp();
    only = await makeUser(solo.deps.db, { role: 'admin', name: 'Only' });
    token = await solo.tokenFor(only);
  });
  afterAll(() => solo.dispose());

  it.each<[string, Record<string, unknown>]>([
    ['demoted', { role: 'user' }],
    ['suspended', { status: 'suspended' }],
    ['banned', { status: 'banned', banReason: 'oops' }],
  ])('cannot be %s, and nothing else in that edit is applied', async (_label, change) => {
    const res = await solo.call('PUT', `/api/admin/users/${only._id}`, {
      token,
      body: { name: 'Changed', email: only.email, balance: 99, ...change },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'last_admin',
      message: 'The last active admin cannot be demoted or banned',
    });
    const after = await solo.deps.db
      .selectFrom('users')
      .selectAll()
      .where('_id', '=', only._id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ name: 'Only', role: 'admin', status: 'active', balance: 0 });
    expect(await solo.deps.db.selectFrom('ledger').selectAll().execute()).toEqual([]);
  });

  it('cannot be deleted', async () => {
    const res = await solo.call('DELETE', `/api/admin/users/${only._id}`, { token });
    expect([res.status, res.body.error.code]).toEqual([409, 'last_admin']);
  });

  it('can step down once another active admin exists', async () => {
    const second = await makeUser(solo.deps.db, { role: 'admin' });
    const res = await solo.call('PUT', `/api/admin/users/${only._id}`, {
      token,
      body: { name: only.name, email: only.email, role: 'user' },
    });
    expect([res.status, res.body.data.role]).toEqual([200, 'user']);
    // and the token that did it no longer opens the panel
    expect((await solo.call('GET', '/api/admin/users', { token })).status).toBe(403);
    const again = await solo.call('PUT', `/api/admin/users/${second._id}`, {
      token: await solo.tokenFor(second),
      body: { name: 'x', email: second.email, status: 'suspended' },
    });
    expect([again.status, again.body.error.code]).toEqual([409, 'last_admin']);
  });
});

describe('two admins demoting each other at the same instant', () => {
  it('leaves exactly one active admin: one edit succeeds, the other is refused', async () => {
    const pair = await createTestApp();
    try {
      const a = await makeUser(pair.deps.db, { role: 'admin' });
      const b = await makeUser(pair.deps.db, { role: 'admin' });
      const demote = async (actor: UserRow, target: UserRow) =>
        pair.call('PUT', `/api/admin/users/${target._id}`, {
          token: await pair.tokenFor(actor),
          body: { name: target.name, email: target.email, role: 'user' },
        });
      const replies = await Promise.all([demote(a, b), demote(b, a)]);
      // the loser is refused either by the rule (409) or, when the winner committed first, as a non-admin (403)
      const [won, lost] = replies.map((r) => r.status).sort();
      expect(won).toBe(200);
      expect([403, 409]).toContain(lost);
      const admins = await pair.deps.db
        .selectFrom('users')
        .select('_id')
        .where('role', '=', 'admin')
        .where('status', '=', 'active')
        .execute();
      expect(admins).toHaveLength(1);
    } finally {
      await pair.dispose();
    }
  });
});

describe('DELETE /api/admin/users/{id}', () => {
  it('anonymises the account and ends its session at once', async () => {
    const store = t.deps.files;
    const photo = publicImageUrl(await store.save('images', pngFile(), 'image/png'));
    const user = await makeUser(t.deps.db, {
      name: 'Silinecek',
      email: 'delete.me@example.test',
      phone: '+90 555',
      address: 'Adres',
      bio: 'Bio',
      profile_image: photo,
      one_signal_id: 'player-1',
      device_id: 'device-1',
    });
    const token = await t.tokenFor(user);

    const res = await del(user._id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        _id: user._id,
        deleted: true,
        forfeited: {
          balance: 0,
          pendingWithdrawals: 0,
          pendingSubmissions: 0,
          pendingAppeals: 0,
          endedRecords: 0,
        },
      },
    });
    const after = await row(user._id);
    expect(after).toMatchObject({
      name: 'Deleted user',
      email: `deleted-${user._id}@deleted.invalid`,
      phone: null,
      address: null,
      bio: null,
      profile_image: null,
      one_signal_id: null,
      device_id: null,
      status: 'banned',
      role: 'user',
      balance: 0,
      deleted_at: expect.any(String),
    });
    expect(after.password_hash).not.toBe(user.password_hash);
    expect(await store.read('images', photo.split('/').pop()!)).toBeNull();

    const me = await t.call('GET', '/api/users/me', { token });
    expect([me.status, me.body.error.code]).toEqual([401, 'invalid_token']);
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: 'delete.me@example.test', password: 'secret123' },
    });
    expect(login.status).toBe(401);
    expect((await t.call('GET', `/api/admin/users/${user._id}`, { token: adminToken })).status).toBe(404);
    expect((await del(user._id)).status).toBe(404);
    // the address is free again
    const again = await t.call('POST', '/api/auth/register', {
      body: { name: 'Yeni', email: 'delete.me@example.test', password: 'secret123' },
    });
    expect(again.status).toBe(201);
  });

  it('refuses an account holding money or pending items unless the admin confirms the forfeit, which settles everything in one go', async () => {
    const user = await makeUser(t.deps.db, { name: 'Parası var' });
    const token = await t.tokenFor(user);
    await fund(t.deps.db, user._id, 10_000, admin._id);
    const withdrawalId = await makeWithdrawal(t.deps.db, user._id, { amount: 3000 });
    const { submissionId, taskId: proofTask } = await makePendingSubmission(t.deps.db, user._id, {
      reward: 1500,
    });
    await t.deps.db.updateTable('tasks').set({ reserved: 1 }).where('_id', '=', proofTask).execute();
    // a started task holding a slot and an automatic comment
    const started = await createTask(t, adminToken, { maxCompletions: 1, automaticComments: ['Tek yorum'] });
    const startRes = await t.call('POST', `/api/tasks/${started}/start`, { token });
    expect(startRes.body.data.automaticComment).toBe('Tek yorum');
    expect((await taskRow(t, started)).reserved).toBe(1);
    const before = await row(user._id);

    // refused, with what is held, and nothing changed
    const refused = await del(user._id);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'user_has_money',
      held: { balance: 70, pendingWithdrawals: 1, pendingSubmissions: 1, pendingAppeals: 0 },
    });
    expect(await row(user._id)).toEqual(before);
    expect((await t.call('GET', '/api/users/me', { token })).status).toBe(200);
    expect((await del(user._id, adminToken, '?forfeit=yes')).status).toBe(422);

    // with the forfeit: everything settled in the deleting transaction
    const res = await del(user._id, adminToken, '?forfeit=true');
    expect(res.status).toBe(200);
    expect(res.body.data.forfeited).toEqual({
      balance: 100,
      pendingWithdrawals: 1,
      pendingSubmissions: 1,
      pendingAppeals: 0,
      endedRecords: 1,
    });
    const after = await row(user._id);
    expect(after).toMatchObject({ balance: 0, deleted_at: expect.any(String), total_earned: 0 });
    expect(
      await t.deps.db
        .selectFrom('withdrawals')
        .selectAll()
        .where('_id', '=', withdrawalId)
        .executeTakeFirst(),
    ).toMatchObject({ status: 'rejected', rejection_reason: 'Account deleted', reviewed_by: admin._id });
    expect(
      await t.deps.db
        .selectFrom('submissions')
        .selectAll()
        .where('_id', '=', submissionId)
        .executeTakeFirst(),
    ).toMatchObject({ status: 'rejected', feedback: 'Account deleted', reviewed_by: admin._id });
    expect((await taskRow(t, proofTask)).reserved).toBe(0);
    // the started task's slot and comment are back for someone else
    expect((await taskRow(t, started)).reserved).toBe(0);
    const other = await makeUser(t.deps.db);
    const otherStart = await t.call('POST', `/api/tasks/${started}/start`, {
      token: await t.tokenFor(other),
    });
    expect(otherStart.body.data.automaticComment).toBe('Tek yorum');
    // the ledger: fund +10,000, hold -3,000, refund +3,000, forfeit -10,000 by the admin
    const rows = await ledger(user._id);
    expect(rows.map((r) => [r.kind, r.amount])).toEqual([
      ['adjustment', 10_000],
      ['withdrawal_hold', -3000],
      ['withdrawal_refund', 3000],
      ['forfeit', -10_000],
    ]);
    expect(rows.at(-1)?.actor_id).toBe(admin._id);
    expect(await checkDeletedUsers(t.deps.db)).toEqual([]);
    expect(await checkTaskRecords(t.deps.db)).toEqual([]);
    // nothing left to approve or pay on the dead account
    const review = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      token: adminToken,
      body: { status: 'approved', feedback: 'ok' },
    });
    expect([review.status, review.body.error.code]).toEqual([409, 'already_reviewed']);
    const payout = await t.call('PUT', `/api/admin/withdraws/${withdrawalId}/approve`, { token: adminToken });
    expect([payout.status, payout.body.error.code]).toEqual([409, 'already_reviewed']);
  });

  it('upholds a pending appeal of the deleted account', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const now = new Date().toISOString();
    await t.deps.db
      .updateTable('submissions')
      .set({ status: 'rejected', reviewed_at: now, reviewed_by: admin._id })
      .where('_id', '=', submissionId)
      .execute();
    await t.deps.db
      .insertInto('appeals')
      .values({
        submission_id: submissionId,
        user_id: user._id,
        message: 'Lütfen tekrar bakın',
        status: 'pending',
        created_at: now,
        decided_at: null,
        decided_by: null,
        response: null,
      })
      .execute();
    const refused = await del(user._id);
    expect(refused.body.error.held).toEqual({
      balance: 0,
      pendingWithdrawals: 0,
      pendingSubmissions: 0,
      pendingAppeals: 1,
    });
    expect((await del(user._id, adminToken, '?forfeit=true')).status).toBe(200);
    expect(
      await t.deps.db
        .selectFrom('appeals')
        .selectAll()
        .where('submission_id', '=', submissionId)
        .executeTakeFirst(),
    ).toMatchObject({ status: 'upheld', decided_by: admin._id, response: 'Account deleted' });
    expect(await checkAppeals(t.deps.db)).toEqual([]);
  });

  it('a deletion racing a payout of the same withdrawal: one of them wins, the money is counted once', async () => {
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 5000, admin._id);
    const id = await makeWithdrawal(t.deps.db, user._id, { amount: 5000 });
    const [deleted, paid] = await Promise.all([
      del(user._id, adminToken, '?forfeit=true'),
      t.call('PUT', `/api/admin/withdraws/${id}/approve`, { token: adminToken }),
    ]);
    expect(deleted.status).toBe(200);
    const w = await t.deps.db
      .selectFrom('withdrawals')
      .selectAll()
      .where('_id', '=', id)
      .executeTakeFirstOrThrow();
    if (paid.status === 200) {
      expect(w.status).toBe('approved');
      expect(deleted.body.data.forfeited.pendingWithdrawals).toBe(0);
    } else {
      expect([paid.status, w.status]).toEqual([409, 'rejected']);
      expect(deleted.body.data.forfeited.balance).toBe(50);
    }
    expect((await row(user._id)).balance).toBe(0);
    expect(await checkDeletedUsers(t.deps.db)).toEqual([]);
  });

  it("a deletion racing the user's own withdrawals, starts and proof: each is settled by it or refused, nothing is left held", async () => {
    // on PostgreSQL the user's transactions run beside the deletion's: holdLiveUser
    // and lockUserForDeletion order them; on SQLite the one writer does
    for (let round = 0; round < 3; round++) {
      const user = await makeUser(t.deps.db);
      const token = await t.tokenFor(user);
      await fund(t.deps.db, user._id, 20_000, admin._id);
      const proofTask = await createTask(t, adminToken, { requiredProof: 'screenshot' });
      const startTasks = [await createTask(t, adminToken), await createTask(t, adminToken)];
      expect((await t.call('POST', `/api/tasks/${proofTask}/start`, { token })).status).toBe(201);
      const papara = {
        paymentMethod: 'papara',
        accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber: '1234567890' },
      };
      const replies = await Promise.all([
        ...Array.from({ length: 4 }, () =>
          t.call('POST', '/api/withdraws', { token, body: { amount: 50, ...papara } }),
        ),
        ...startTasks.map((id) => t.call('POST', `/api/tasks/${id}/start`, { token })),
        submit(t, token, { task: proofTask, file: pngFile() }),
        del(user._id, adminToken, '?forfeit=true'),
      ]);
      const deleted = replies.at(-1)!;
      expect(deleted.status).toBe(200);
      // every reply is a success or a refusal, never a server error
      for (const r of replies) expect(r.status).toBeLessThan(500);
      expect((await row(user._id)).balance).toBe(0);
      expect(await checkDeletedUsers(t.deps.db)).toEqual([]);
      // (other tests of this file plant rows behind the counters' back: only these tasks)
      const mine = [proofTask, ...startTasks];
      const problems = (await checkTaskRecords(t.deps.db)).filter((p) => mine.some((id) => p.includes(id)));
      expect(problems).toEqual([]);
    }
  });

  it('the doctor finds a deleted user left holding money, a slot or a pending item', async () => {
    const user = await makeUser(t.deps.db);
    await del(user._id);
    // written behind the deletion's back (the admin's edit no longer can: a straight credit)
    const plant = {
      userId: user._id,
      amount: 100,
      kind: 'adjustment' as const,
      ref: null,
      actorId: admin._id,
    };
    await t.deps.db.transaction().execute((tx) => credit(tx, plant));
    await makePendingSubmission(t.deps.db, user._id);
    const found = await checkDeletedUsers(t.deps.db);
    expect(found).toEqual(
      expect.arrayContaining([
        `deleted user ${user._id} still holds a balance of 100 kuruş`,
        `deleted user ${user._id} still has 1 pending proof(s)`,
      ]),
    );
    // put right so the other checks of this file stay clean
    await t.deps.db
      .updateTable('submissions')
      .set({ status: 'rejected' })
      .where('user_id', '=', user._id)
      .execute();
    await t.deps.db.transaction().execute((tx) => debit(tx, plant));
  });

  it('answers 404 for an unknown id', async () => {
    expect((await del('0123456789abcdef01234567')).status).toBe(404);
  });
});
