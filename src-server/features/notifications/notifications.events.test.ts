import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { NOTIFICATION_TEXTS } from './notification-texts';
import { ALL_SUBSCRIBERS_SEGMENT } from './push';
import { closedPortUrl, type PushRecorder, startPushRecorder } from './push-recorder';

/** The automatic pushes: sent after the change commits, never failing or delaying the reply. */

let rec: PushRecorder;
let t: TestApp;
let admin: UserRow;
let adminToken: string;
const env = (baseUrl: string) => ({
  ONESIGNAL_APP_ID: 'app-1',
  ONESIGNAL_API_KEY: 'key-1',
  ONESIGNAL_BASE_URL: baseUrl,
});

beforeAll(async () => {
  rec = await startPushRecorder();
  t = await createTestApp({ env: env(rec.url) });
  admin = await makeUser(t.deps.db, { role: 'admin' });
  adminToken = await t.tokenFor(admin);
});
afterAll(async () => {
  await t.dispose();
  await rec.close();
});
let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  rec.requests.length = 0;
  rec.reply({ status: 200, body: '{"id":"n-1"}' });
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  return () => vi.restoreAllMocks();
});

const settle = () => new Promise((r) => setTimeout(r, 150));
const approve = { status: 'approved', feedback: 'Güzel' };
const reject = { status: 'rejected', feedback: 'Eksik', rejectionReason: 'no_share' };

async function pendingOf(pushId: string | null) {
  const user = await makeUser(t.deps.db, { one_signal_id: pushId });
  return (await makePendingSubmission(t.deps.db, user._id)).submissionId;
}
async function withdrawalOf(pushId: string | null) {
  const user = await makeUser(t.deps.db, { one_signal_id: pushId });
  await fund(t.deps.db, user._id, 10_000, admin._id);
  return makeWithdrawal(t.deps.db, user._id, { amount: 5000 });
}

describe('pushes on events', () => {
  it.each<[string, () => Promise<{ status: number }>, keyof typeof NOTIFICATION_TEXTS]>([
    [
      'an approved submission',
      async () =>
        t.call('PUT', `/api/submissions/${await pendingOf('player-7')}/review`, {
          token: adminToken,
          body: approve,
        }),
      'isAccepted',
    ],
    [
      'a rejected submission',
      async () =>
        t.call('PUT', `/api/submissions/${await pendingOf('player-7')}/review`, {
          token: adminToken,
          body: reject,
        }),
      'isRejected',
    ],
    [
      'an approved withdrawal',
      async () =>
        t.call('PUT', `/api/admin/withdraws/${await withdrawalOf('player-7')}/approve`, {
          token: adminToken,
        }),
      'acceptedWithdraw',
    ],
    [
      'a rejected withdrawal',
      async () =>
        t.call('PUT', `/api/admin/withdraws/${await withdrawalOf('player-7')}/reject`, {
          token: adminToken,
          body: { reason: 'IBAN hatalı' },
        }),
      'rejectedWithdraw',
    ],
  ])('tells the user of %s on their push id', async (_label, act, type) => {
    const res = await act();
    expect(res.status).toBe(200);
    const [req] = await rec.waitFor(1);
    expect(req.headers.authorization).toBe('Key key-1');
    expect(req.body).toEqual({
      app_id: 'app-1',
      target_channel: 'push',
      include_subscription_ids: ['player-7'],
      ...NOTIFICATION_TEXTS[type],
      data: { type },
    });
    await settle();
    expect(rec.requests).toHaveLength(1);
  });

  it('tells every subscribed device of a new active task', async () => {
    const res = await t.call('POST', '/api/tasks', {
      token: adminToken,
      body: { title: 'Yeni görev', description: 'Yap', reward: 5, maxCompletions: 10 },
    });
    expect(res.status).toBe(201);
    const [req] = await rec.waitFor(1);
    expect(req.body).toMatchObject({
      included_segments: [ALL_SUBSCRIBERS_SEGMENT],
      data: { type: 'newTask' },
    });
    expect(req.body).toMatchObject(NOTIFICATION_TEXTS.newTask);
  });

  it.each<[string, () => Promise<unknown>]>([
    [
      'a user without a push id is approved',
      async () =>
        t.call('PUT', `/api/submissions/${await pendingOf(null)}/review`, {
          token: adminToken,
          body: approve,
        }),
    ],
    [
      'a withdrawal of a user without a push id is rejected',
      async () =>
        t.call('PUT', `/api/admin/withdraws/${await withdrawalOf(null)}/reject`, {
          token: adminToken,
          body: { reason: 'x' },
        }),
    ],
    [
      'an inactive task is created',
      () =>
        t.call('POST', '/api/tasks', {
          token: adminToken,
          body: { title: 'Taslak', description: 'd', reward: 1, maxCompletions: 1, status: 'inactive' },
        }),
    ],
    [
      'a review is refused (already reviewed)',
      async () => {
        const id = await pendingOf('player-8');
        await t.call('PUT', `/api/submissions/${id}/review`, { token: adminToken, body: reject });
        await rec.waitFor(1);
        rec.requests.length = 0;
        return t.call('PUT', `/api/submissions/${id}/review`, { token: adminToken, body: approve });
      },
    ],
    [
      'a review is replayed with the same Idempotency-Key',
      async () => {
        const id = await pendingOf('player-9');
        const call = () =>
          t.call('PUT', `/api/submissions/${id}/review`, {
            token: adminToken,
            body: approve,
            headers: { 'Idempotency-Key': `k-${id}` },
          });
        await call();
        await rec.waitFor(1);
        rec.requests.length = 0;
        const again = await call();
        expect(again.headers.get('Idempotent-Replayed')).toBe('true');
        return again;
      },
    ],
  ])('sends nothing when %s', async (_label, act) => {
    await act();
    await settle();
    expect(rec.requests).toEqual([]);
  });
});

describe('a failing push service', () => {
  it.each<[string, () => void]>([
    ['answers 500', () => rec.reply({ status: 500, body: 'down' })],
    ['never answers', () => rec.reply('hang')],
  ])('never fails or delays an approval when it %s', async (_label, setup) => {
    setup();
    const user = await makeUser(t.deps.db, { one_signal_id: 'player-x' });
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward: 1500 });
    const started = Date.now();
    const res = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      token: adminToken,
      body: approve,
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('approved');
    const row = await t.deps.db
      .selectFrom('users')
      .select('balance')
      .where('_id', '=', user._id)
      .executeTakeFirstOrThrow();
    expect(row.balance).toBe(1500);
    await rec.waitFor(1);
  });

  it('logs the failure instead of throwing it', async () => {
    rec.reply({ status: 500, body: 'down' });
    const id = await withdrawalOf('player-y');
    const res = await t.call('PUT', `/api/admin/withdraws/${id}/approve`, { token: adminToken });
    expect(res.status).toBe(200);
    await rec.waitFor(1);
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[push\] acceptedWithdraw not sent/)),
    );
  });

  it('never fails an approval when nothing listens at its address', async () => {
    const down = await createTestApp({ env: env(await closedPortUrl()) });
    try {
      const token = await down.tokenFor(await makeUser(down.deps.db, { role: 'admin' }));
      const user = await makeUser(down.deps.db, { one_signal_id: 'player-z' });
      const { submissionId } = await makePendingSubmission(down.deps.db, user._id);
      const res = await down.call('PUT', `/api/submissions/${submissionId}/review`, { token, body: approve });
      expect([res.status, res.body.data.status]).toEqual([200, 'approved']);
      await vi.waitFor(() =>
        expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[push\] isAccepted not sent/)),
      );
    } finally {
      await down.dispose();
    }
  });

  it('is never called when push is not configured, and approvals work', async () => {
    const bare = await createTestApp({ env: { ONESIGNAL_BASE_URL: rec.url } });
    try {
      const token = await bare.tokenFor(await makeUser(bare.deps.db, { role: 'admin' }));
      const user = await makeUser(bare.deps.db, { one_signal_id: 'player-q' });
      const { submissionId } = await makePendingSubmission(bare.deps.db, user._id);
      const res = await bare.call('PUT', `/api/submissions/${submissionId}/review`, { token, body: approve });
      expect(res.status).toBe(200);
      await settle();
      expect(rec.requests).toEqual([]);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      await bare.dispose();
    }
  });
});
