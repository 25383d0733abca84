// The in-app inbox. Every event that sends a push also lands in the user's inbox, in
// the transaction of the event (a replay or a lost race writes nothing twice); the list, the
// unread count and marking read are the reader's own; it works with OneSignal unconfigured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { fund, makeWithdrawal } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { submit } from '../submissions/submission-test-helpers';
import { createTask } from '../tasks/task-test-helpers';
import type { UserRow } from '../users/users.repository';
import { addMessage } from './inbox.repository';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
let now = Date.parse('2026-11-10T08:00:00.000Z');
const png = pngFile(10, 10);

beforeAll(async () => {
  // no ONESIGNAL_* configured: the inbox must work without push
  t = await createTestApp({ clock: () => new Date(now) });
  admin = await makeUser(t.deps.db, { role: 'admin' });
  adminToken = await t.tokenFor(admin);
});
afterAll(() => t.dispose());

async function worker(overrides: Partial<UserRow> = {}) {
  const user = await makeUser(t.deps.db, { created_at: new Date(now).toISOString(), ...overrides });
  return { user, token: await t.tokenFor(user) };
}
const inbox = async (token: string, query = '') => {
  const res = await t.call('GET', `/api/notifications${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.data as {
    items: {
      _id: string;
      type: string;
      title: string | null;
      message: string | null;
      ref: string | null;
      read: boolean;
      createdAt: string;
      context: {
        taskId: string | null;
        taskTitle: string | null;
        amount: number | null;
        reasonCode: string | null;
      } | null;
    }[];
    total: number;
    unread: number;
    pages: number;
  };
};
const unread = async (token: string) =>
  (await t.call('GET', '/api/notifications/unread', { token })).body.data.unread as number;
const tick = () => {
  now += 1000;
};

async function sentProof(token: string) {
  const taskId = await createTask(t, adminToken, { reward: 5, maxCompletions: 10 });
  await t.call('POST', `/api/tasks/${taskId}/start`, { token });
  const sent = await submit(t, token, { task: taskId, file: png });
  return { id: sent.body.data._id as string, taskId };
}
const review = (id: string, body: unknown, headers: Record<string, string> = {}) =>
  t.call('PUT', `/api/submissions/${id}/review`, { token: adminToken, body, headers });

describe('events land in the inbox', () => {
  it('an approval and a rejection, once each, newest first, with what they refer to', async () => {
    const w = await worker();
    const a = await sentProof(w.token);
    const b = await sentProof(w.token);
    tick();
    expect((await review(a.id, { status: 'approved', feedback: 'ok' })).status).toBe(200);
    tick();
    const key = { 'Idempotency-Key': 'inbox-reject-1' };
    const body = { status: 'rejected', feedback: 'Göremedik', rejectionReason: 'no_share' };
    expect((await review(b.id, body, key)).status).toBe(200);
    // a replay answers the same and writes nothing; a second decision is refused and writes nothing
    expect((await review(b.id, body, key)).status).toBe(200);
    expect((await review(a.id, { status: 'approved', feedback: 'ok' })).status).toBe(409);
    const page = await inbox(w.token);
    expect(page.items.map((i) => [i.type, i.ref, i.read])).toEqual([
      ['isRejected', b.id, false],
      ['isAccepted', a.id, false],
    ]);
    expect([page.total, page.unread]).toEqual([2, 2]);
    expect(await unread(w.token)).toBe(2);
    expect(page.items.map((i) => [i.context?.taskId, i.context?.amount, i.context?.reasonCode])).toEqual([
      [b.taskId, 5, 'no_share'],
      [a.taskId, 5, null],
    ]);
  });

  it('withdrawals approved and rejected (with the reason), an appeal decided, a started task closed', async () => {
    const w = await worker();
    await fund(t.deps.db, w.user._id, 20_000, admin._id);
    const paid = await makeWithdrawal(t.deps.db, w.user._id, { amount: 5000 });
    const refused = await makeWithdrawal(t.deps.db, w.user._id, { amount: 5000 });
    tick();
    await t.call('PUT', `/api/admin/withdraws/${paid}/approve`, { token: adminToken });
    tick();
    await t.call('PUT', `/api/admin/withdraws/${refused}/reject`, {
      token: adminToken,
      body: { reason: 'IBAN hatalı' },
    });
    const proof = await sentProof(w.token);
    tick();
    await review(proof.id, { status: 'rejected', feedback: 'Göremedik', rejectionReason: 'no_share' });
    tick();
    await t.call('POST', `/api/submissions/${proof.id}/appeal`, {
      token: w.token,
      body: { message: 'Paylaşımı yaptım, lütfen tekrar bakın.' },
    });
    await t.call('PUT', `/api/admin/submissions/${proof.id}/appeal`, {
      token: adminToken,
      body: { decision: 'overturn', response: 'Haklısınız, onaylandı.' },
    });
    const closing = await createTask(t, adminToken, { maxCompletions: 5 });
    await t.call('POST', `/api/tasks/${closing}/start`, { token: w.token });
    tick();
    expect((await t.call('DELETE', `/api/tasks/${closing}`, { token: adminToken })).status).toBe(200);
    const page = await inbox(w.token);
    expect(page.items.map((i) => [i.type, i.ref, i.message])).toEqual([
      ['taskClosed', closing, null],
      ['appealOverturned', proof.id, 'Haklısınız, onaylandı.'],
      ['isRejected', proof.id, null],
      ['rejectedWithdraw', refused, 'IBAN hatalı'],
      ['acceptedWithdraw', paid, null],
    ]);
    // each names what it is about: the task (by id, with its title) and the amount
    const proofTask = (await t.call('GET', `/api/tasks/${proof.taskId}`, { token: w.token })).body.data.title;
    expect(page.items.map((i) => i.context)).toEqual([
      expect.objectContaining({ taskId: closing, amount: null }),
      { taskId: proof.taskId, taskTitle: proofTask, amount: 5, reasonCode: null },
      // the proof was approved on appeal since: its reason is gone with the rejection
      { taskId: proof.taskId, taskTitle: proofTask, amount: 5, reasonCode: null },
      { taskId: null, taskTitle: null, amount: 50, reasonCode: null },
      { taskId: null, taskTitle: null, amount: 50, reasonCode: null },
    ]);
  });

  it('a message to everyone goes to the accounts that exist, read by each on their own; one to a player id to its user', async () => {
    const before = await worker();
    const other = await worker({ one_signal_id: 'player-inbox-1' });
    tick();
    const all = await t.call('POST', '/api/auth/send-notification', {
      token: adminToken,
      body: {
        notificationType: 'customMessage',
        target: 'all',
        title: 'Bakım',
        message: 'Gece 2de bakım var.',
      },
    });
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ pushed: false, inbox: 1, id: null });
    tick();
    const one = await t.call('POST', '/api/auth/send-notification', {
      token: adminToken,
      body: {
        notificationType: 'customMessage',
        playerId: 'player-inbox-1',
        title: 'Merhaba',
        message: 'Sadece size.',
      },
    });
    expect(one.body.data).toMatchObject({ pushed: false, inbox: 1 });
    const nobody = await t.call('POST', '/api/auth/send-notification', {
      token: adminToken,
      body: { notificationType: 'customMessage', playerId: 'no-such-player', title: 'x', message: 'y' },
    });
    expect(nobody.body.data.inbox).toBe(0);
    // a fixed type has nowhere to go without push
    const fixed = await t.call('POST', '/api/auth/send-notification', {
      token: adminToken,
      body: { notificationType: 'newTask', target: 'all' },
    });
    expect([fixed.status, fixed.body.error.code]).toEqual([409, 'push_not_configured']);
    tick();
    const later = await worker();

    const mine = await inbox(before.token);
    expect(mine.items.map((i) => [i.type, i.title, i.message])).toEqual([
      ['customMessage', 'Bakım', 'Gece 2de bakım var.'],
    ]);
    expect((await inbox(other.token)).items.map((i) => i.title)).toEqual(['Merhaba', 'Bakım']);
    expect((await inbox(later.token)).total).toBe(0);

    // read by one, still unread for the other
    const read = await t.call('PUT', `/api/notifications/${mine.items[0]!._id}/read`, {
      token: before.token,
    });
    expect(read.body.data).toEqual({ _id: mine.items[0]!._id, read: true });
    expect(
      (await t.call('PUT', `/api/notifications/${mine.items[0]!._id}/read`, { token: before.token })).status,
    ).toBe(200);
    expect(await unread(before.token)).toBe(0);
    expect(await unread(other.token)).toBe(2);
    const everything = await t.call('PUT', '/api/notifications/read-all', { token: other.token });
    expect(everything.body.data).toEqual({ updated: 2 });
    expect((await t.call('PUT', '/api/notifications/read-all', { token: other.token })).body.data).toEqual({
      updated: 0,
    });
    expect((await inbox(other.token)).items.every((i) => i.read)).toBe(true);
  });
});

describe('access', () => {
  it('a message is its reader’s own: another user cannot see or mark it (404), a visitor gets 401', async () => {
    const owner = await worker();
    const stranger = await worker();
    const proof = await sentProof(owner.token);
    await review(proof.id, { status: 'approved', feedback: 'ok' });
    const [message] = (await inbox(owner.token)).items;
    expect((await inbox(stranger.token)).total).toBe(0);
    // a message naming someone else's proof tells its reader nothing of it
    await addMessage(t.deps.db, {
      userId: stranger.user._id,
      type: 'isAccepted',
      ref: proof.id,
      at: message!.createdAt,
    });
    expect((await inbox(stranger.token)).items.map((i) => i.context)).toEqual([null]);
    await t.deps.db.deleteFrom('inbox').where('user_id', '=', stranger.user._id).execute();
    const res = await t.call('PUT', `/api/notifications/${message!._id}/read`, { token: stranger.token });
    expect([res.status, res.body.error.code]).toEqual([404, 'notification_not_found']);
    expect(await unread(owner.token)).toBe(1);
    expect((await t.call('PUT', '/api/notifications/read-all', { token: stranger.token })).body.data).toEqual(
      {
        updated: 0,
      },
    );
    expect(await unread(owner.token)).toBe(1);
    for (const [method, path] of [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread'],
      ['PUT', '/api/notifications/read-all'],
      ['PUT', `/api/notifications/${message!._id}/read`],
    ] as const) {
      expect((await t.call(method, path)).status).toBe(401);
    }
    // a suspended user still reads their own inbox
    await t.deps.db
      .updateTable('users')
      .set({ status: 'suspended' })
      .where('_id', '=', owner.user._id)
      .execute();
    expect((await inbox(owner.token)).total).toBe(1);
  });

  it('pages newest first and refuses a bad page or limit with the field', async () => {
    const w = await worker({ one_signal_id: 'player-pages' });
    for (let i = 0; i < 25; i++) {
      tick();
      await t.call('POST', '/api/auth/send-notification', {
        token: adminToken,
        body: { notificationType: 'customMessage', playerId: 'player-pages', title: `M${i}`, message: 'x' },
      });
    }
    const first = await inbox(w.token, '?limit=10');
    expect([first.total, first.pages, first.items[0]?.title]).toEqual([25, 3, 'M24']);
    expect((await inbox(w.token, '?page=3&limit=10')).items.map((i) => i.title)).toEqual([
      'M4',
      'M3',
      'M2',
      'M1',
      'M0',
    ]);
    for (const bad of ['?page=0', '?limit=101', '?limit=abc']) {
      const res = await t.call('GET', `/api/notifications${bad}`, { token: w.token });
      expect(res.status).toBe(422);
    }
  });
});
