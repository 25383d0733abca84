import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_STATUSES } from '../../contract/constants';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { checkStatCounters } from '../stats/stat-doctor';

// The admins' list by date reads its totals from counters and starts a deep page at the day that
// holds its first row (counters per UTC day of created_at, by status). Every page of every
// status, in both orders, must hold exactly the rows a plain ORDER BY ... OFFSET gives, also
// after reviews move rows between statuses, a row changes day, and a row is deleted.

let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  const worker = await makeUser(t.deps.db);
  const statuses = ['pending', 'approved', 'rejected'] as const;
  // 40 submissions over 9 days, several in the same second (the id breaks those ties), the
  // days uneven (day 0 has many, day 5 none)
  for (let n = 0; n < 40; n++) {
    const dayIndex = n < 12 ? 0 : (n % 8) + 1;
    const at = new Date(Date.UTC(2026, 3, 1 + (dayIndex === 5 ? 9 : dayIndex), n % 5, 0, n % 3));
    const { submissionId } = await makePendingSubmission(t.deps.db, worker._id, {
      createdAt: at.toISOString(),
    });
    await t.deps.db
      .updateTable('submissions')
      .set({ status: statuses[(n * 7) % 3] })
      .where('_id', '=', submissionId)
      .execute();
  }
});
afterAll(() => t.dispose());

/** The ids of the list as a plain ORDER BY gives them. */
async function expected(status: string | undefined, sort: 'newest' | 'oldest'): Promise<string[]> {
  let q = t.deps.db.selectFrom('submissions').select('_id');
  if (status) q = q.where('status', '=', status as 'pending');
  const dir = sort === 'newest' ? 'desc' : 'asc';
  return (await q.orderBy('created_at', dir).orderBy('_id', dir).execute()).map((r) => r._id);
}

/** Every page of the list, 3 at a time, and the totals they gave. */
async function paged(status: string | undefined, sort: 'newest' | 'oldest') {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; page <= 20; page++) {
    const res = await t.call(
      'GET',
      `/api/admin/submissions?limit=3&page=${page}&sort=${sort}${status ? `&status=${status}` : ''}`,
      { token: adminToken },
    );
    expect(res.status).toBe(200);
    totals.add(res.body.data.total);
    ids.push(...res.body.data.items.map((i: { _id: string }) => i._id));
  }
  return { ids, totals: [...totals] };
}

async function everyListAgrees() {
  for (const status of [undefined, ...REVIEW_STATUSES]) {
    for (const sort of ['newest', 'oldest'] as const) {
      const want = await expected(status, sort);
      const got = await paged(status, sort);
      expect(got.ids, `${status ?? 'all'} ${sort}`).toEqual(want);
      expect(got.totals).toEqual([want.length]);
    }
  }
  expect(await checkStatCounters(t.deps.db)).toEqual([]);
}

describe('GET /api/admin/submissions by date, from the counters', () => {
  it('gives every page of every status in both orders as a plain ORDER BY ... OFFSET does', async () => {
    await everyListAgrees();
  });

  it('still does after reviews, a row moved to another day, and a deletion', async () => {
    const rows = await t.deps.db.selectFrom('submissions').select(['_id', 'status']).orderBy('_id').execute();
    const pending = rows.filter((r) => r.status === 'pending');
    await t.deps.db
      .updateTable('submissions')
      .set({ status: 'approved' })
      .where('_id', '=', pending[0]._id)
      .execute();
    await t.deps.db
      .updateTable('submissions')
      .set({ status: 'rejected' })
      .where('_id', '=', pending[1]._id)
      .execute();
    await t.deps.db
      .updateTable('submissions')
      .set({ created_at: '2026-05-20T10:00:00.000Z' })
      .where('_id', '=', rows[3]._id)
      .execute();
    // an update that changes neither status nor day moves nothing
    await t.deps.db
      .updateTable('submissions')
      .set({ created_at: '2026-05-20T11:00:00.000Z', status: 'approved' })
      .where('_id', '=', rows[3]._id)
      .where('status', '=', 'approved')
      .execute();
    await t.deps.db.deleteFrom('submissions').where('_id', '=', rows[5]._id).execute();
    await everyListAgrees();
  });
});
