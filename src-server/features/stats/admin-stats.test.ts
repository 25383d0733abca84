import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission, makeTask } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { growthPercent, turkeyMidnight } from './admin-stats.service';

// 15:00 in Istanbul; local midnight was 2026-05-09T21:00Z
const NOW = new Date('2026-05-10T12:00:00.000Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

let t: TestApp;
let adminToken: string;

async function submission(
  status: 'pending' | 'approved' | 'rejected',
  reward: number,
  createdAt: string,
  reviewedAt: string | null = null,
) {
  const user = await makeUser(t.deps.db, { created_at: ago(400) });
  const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward, createdAt });
  if (status !== 'pending') {
    await t.deps.db
      .updateTable('submissions')
      .set({ status, reviewed_at: reviewedAt, updated_at: reviewedAt ?? createdAt })
      .where('_id', '=', submissionId)
      .execute();
  }
}

beforeAll(async () => {
  t = await createTestApp({ clock: () => NOW });
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin', created_at: ago(400) }));
  // users: 3 in the last 30 days (one of them today), 2 in the 30 before, 1 deleted recently,
  // and 1 more this month that joined yesterday in Turkey's time
  for (const created of [ago(30), ago(1), '2026-05-09T22:00:00.000Z', ago(31), ago(59)]) {
    await makeUser(t.deps.db, { created_at: created });
  }
  await makeUser(t.deps.db, { created_at: '2026-05-09T20:59:59.999Z' }); // yesterday in Turkey
  await makeUser(t.deps.db, { created_at: ago(2), deleted_at: ago(1) });
  // earnings by approval time: 15 TL this month, 10 TL the month before, 3 TL long ago
  await submission('approved', 1000, ago(40), ago(2));
  await submission('approved', 500, ago(1), '2026-05-10T08:00:00.000Z');
  await submission('approved', 1000, ago(50), ago(45));
  await submission('approved', 300, ago(200), ago(199));
  await submission('rejected', 700, ago(3), '2026-05-09T21:00:00.000Z');
  await submission('rejected', 700, ago(3), '2026-05-09T20:00:00.000Z');
  await submission('pending', 200, '2026-05-10T09:00:00.000Z');
  await submission('pending', 200, ago(6));
  // tasks: the 8 of the submissions are old; 1 new this month, none in the month before
  await t.deps.db
    .updateTable('tasks')
    .set({ created_at: ago(400) })
    .execute();
  await makeTask(t.deps.db, { created_at: ago(3) });
  await makeTask(t.deps.db, { created_at: ago(5), deleted_at: ago(4) });
});
afterAll(() => t.dispose());

describe('GET /api/admin/stats', () => {
  it('counts live users and tasks, pending submissions and approved rewards, with 30-day growth', async () => {
    const res = await t.call('GET', '/api/admin/stats', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        totalUsers: 1 + 5 + 1 + 8,
        totalTasks: 9,
        pendingSubmissions: 2,
        pendingAppeals: 0,
        totalRewards: 28,
        // users: 4 in the last 30 days (exactly 30 days ago counts) against 2 before;
        // the 8 submitters are a year old and the deleted one does not count
        userGrowthPercent: 100,
        // tasks: 1 now, 0 before: no earlier window, so 0, and marked new
        taskGrowthPercent: 0,
        // earnings: 15 TL against 10 TL
        earningGrowthPercent: 50,
        userGrowthNew: false,
        taskGrowthNew: true,
        earningGrowthNew: false,
        // the same windows as figures, and the last 30 days one by one, oldest first (the day
        // that began exactly 30 days ago is the first; the last 24 hours are the last)
        trend: {
          users: { current: 4, previous: 2, days: days({ 0: 1, 29: 3 }) },
          tasks: { current: 1, previous: 0, days: days({ 27: 1 }) },
          rewards: { current: 15, previous: 10, days: days({ 28: 10, 29: 5 }) },
        },
      },
    });
  });

  it('reads as nothing yet on a fresh site: zeros, no growth, 30 empty days', async () => {
    const fresh = await createTestApp({ clock: () => NOW });
    try {
      const token = await fresh.tokenFor(
        await makeUser(fresh.deps.db, { role: 'admin', created_at: ago(400) }),
      );
      const res = await fresh.call('GET', '/api/admin/stats', { token });
      expect(res.body.data).toMatchObject({ userGrowthPercent: 0, userGrowthNew: false, totalTasks: 0 });
      expect(res.body.data.trend.tasks).toEqual({ current: 0, previous: 0, days: days({}) });
      expect(res.body.data.trend.rewards).toEqual({ current: 0, previous: 0, days: days({}) });
    } finally {
      await fresh.dispose();
    }
  });
});

/** 30 zeros but at the given days. */
function days(at: Record<number, number>): number[] {
  return Array.from({ length: 30 }, (_, i) => at[i] ?? 0);
}

describe('GET /api/admin/stats/today', () => {
  it('counts since midnight in Turkey: new users, new submissions, approvals and rejections', async () => {
    const res = await t.call('GET', '/api/admin/stats/today', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { todayUsers: 1, todaySubmissions: 1, todayApproved: 1, todayRejected: 1 },
    });
  });
});

describe('growthPercent', () => {
  it.each([
    [0, 5, 0],
    [0, 0, 0],
    [2, 3, 50],
    [4, 1, -75],
    [3, 4, 33.3],
    [3, 3, 0],
    [1, 0, -100],
  ])('from %i to %i is %d', (previous, current, expected) => {
    expect(growthPercent(previous, current)).toBe(expected);
  });
});

describe('turkeyMidnight', () => {
  it.each([
    ['2026-05-10T12:00:00.000Z', '2026-05-09T21:00:00.000Z'],
    ['2026-05-09T21:00:00.000Z', '2026-05-09T21:00:00.000Z'],
    ['2026-05-09T20:59:59.999Z', '2026-05-08T21:00:00.000Z'],
    ['2026-01-01T00:30:00.000Z', '2025-12-31T21:00:00.000Z'],
  ])('of %s is %s', (now, expected) => {
    expect(turkeyMidnight(new Date(now))).toBe(expected);
  });
});
