import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { verifyProofUrl } from '../files/file-urls';
import type { UserRow } from '../users/users.repository';

let t: TestApp;
let adminToken: string;
let ayse: UserRow;
const ids: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  ayse = await makeUser(t.deps.db, { name: 'Ayşe Demir', email: 'ayse@example.test' });
  const bora = await makeUser(t.deps.db, { name: 'Bora Şen', email: 'bora@example.test' });
  const statuses = ['pending', 'approved', 'rejected', 'pending', 'approved', 'pending', 'pending'] as const;
  for (const [n, status] of statuses.entries()) {
    const { submissionId } = await makePendingSubmission(t.deps.db, n % 2 ? bora._id : ayse._id, {
      reward: 100 * (n + 1),
      createdAt: new Date(Date.UTC(2026, 3, 1 + n)).toISOString(),
    });
    await t.deps.db
      .updateTable('submissions')
      .set({ status, proof_file: `${String(n).repeat(32)}.png` })
      .where('_id', '=', submissionId)
      .execute();
    ids.push(submissionId);
  }
});
afterAll(() => t.dispose());

const get = (path: string) => t.call('GET', path, { token: adminToken });
const idsOf = (items: { _id: string }[]) => items.map((s) => s._id);

describe('GET /api/admin/submissions', () => {
  it('filters by one task and by one worker, with the status, and refuses an id that is not one', async () => {
    const firstTask = (
      await t.deps.db
        .selectFrom('submissions')
        .select('task_id')
        .where('_id', '=', ids[0]!)
        .executeTakeFirstOrThrow()
    ).task_id;
    const byTask = await get(`/api/admin/submissions?task=${firstTask}`);
    expect([byTask.body.data.total, idsOf(byTask.body.data.items)]).toEqual([1, [ids[0]]]);
    const byWorker = await get(`/api/admin/submissions?user=${ayse._id}`);
    expect(idsOf(byWorker.body.data.items)).toEqual([ids[6], ids[4], ids[2], ids[0]]);
    const pendingOfWorker = await get(`/api/admin/submissions?user=${ayse._id}&status=pending`);
    expect(idsOf(pendingOfWorker.body.data.items)).toEqual([ids[6], ids[0]]);
    const csv = await t.app.request(`/api/admin/submissions/export.csv?user=${ayse._id}&format=rfc4180`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect((await csv.text()).trim().split('\n')).toHaveLength(1 + 4);
    for (const bad of ['?task=x', "?user=1' OR 1=1"])
      expect((await get(`/api/admin/submissions${bad}`)).status).toBe(422);
  });

  it('pages every submission newest first, each with its task, sender and email, and a signed proof URL', async () => {
    const res = await get('/api/admin/submissions?limit=3');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 7, page: 1, limit: 3, pages: 3 });
    expect(idsOf(res.body.data.items)).toEqual([ids[6], ids[5], ids[4]]);
    const item = res.body.data.items[0];
    expect(item).toEqual({
      _id: ids[6],
      status: 'pending',
      createdAt: '2026-04-07T00:00:00.000Z',
      updatedAt: expect.any(String),
      reviewedAt: null,
      description: 'done',
      feedback: null,
      feedbackCode: null,
      rejectionReason: null,
      automaticComment: null,
      flags: [],
      reward: 7,
      autoApproved: false,
      appeal: null,
      appealable: false,
      autoApproveAt: null,
      proofType: 'screenshot',
      proofUrl: null,
      proofText: null,
      proofImageUrl: expect.stringMatching(/^\/api\/files\/proofs\/6{32}\.png\?exp=\d+&sig=/),
      proofThumbnailUrl: null, // made by a factory, not uploaded
      task: { _id: expect.any(String), title: expect.any(String), reward: 7 },
      user: {
        _id: ayse._id,
        name: 'Ayşe Demir',
        email: 'ayse@example.test',
        status: 'active',
        banReason: null,
      },
    });
    const url = new URL(item.proofImageUrl, 'http://x');
    const name = url.pathname.split('/').pop()!;
    expect(
      verifyProofUrl(
        t.deps.secret,
        name,
        url.searchParams.get('exp')!,
        url.searchParams.get('sig')!,
        new Date(),
      ),
    ).toBe(true);
  });

  it.each<[string, string, number[]]>([
    ['all (no filter)', '', [6, 5, 4, 3, 2, 1, 0]],
    ['all, spelled out', 'status=all', [6, 5, 4, 3, 2, 1, 0]],
    ['pending', 'status=pending', [6, 5, 3, 0]],
    ['approved', 'status=approved', [4, 1]],
    ['rejected', 'status=rejected', [2]],
    ['the sender name', 'q=bora', [5, 3, 1]],
    ['the sender email', 'q=ayse@', [6, 4, 2, 0]],
    ['a status and a search', 'status=pending&q=bora', [5, 3]],
    // Turkish folding, as every admin search: Ş/ş/s, ı/I/i and accents
    ['the sender name in capitals', `q=${encodeURIComponent('BORA ŞEN')}`, [5, 3, 1]],
    ['the sender name without its accent', 'q=ayse%20demir', [6, 4, 2, 0]],
    ['the task title in capitals', 'q=UYGULAMAYI%20DEGERLENDIR', [6, 5, 4, 3, 2, 1, 0]],
    ['the second page', 'limit=5&page=2', [1, 0]],
  ])('filters by %s', async (_label, query, expected) => {
    const res = await get(`/api/admin/submissions?${query}`);
    expect(res.status).toBe(200);
    expect(idsOf(res.body.data.items)).toEqual(expected.map((n) => ids[n]));
  });

  it.each(['status=done', 'page=0', 'limit=500', 'limit=x'])('refuses %s with a 422', async (query) => {
    const res = await get(`/api/admin/submissions?${query}`);
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
  });
});

describe('GET /api/admin/submissions/recent', () => {
  it('gives the 5 newest of any status by default', async () => {
    const res = await get('/api/admin/submissions/recent');
    expect(res.status).toBe(200);
    expect(idsOf(res.body.data)).toEqual([ids[6], ids[5], ids[4], ids[3], ids[2]]);
    expect(res.body.data[2]).toMatchObject({ status: 'approved', user: { email: 'ayse@example.test' } });
  });

  it.each([
    ['limit=2', 2],
    ['limit=50', 7],
    ['limit=', 5],
  ])('takes %s', async (query, count) => {
    const res = await get(`/api/admin/submissions/recent?${query}`);
    expect(res.body.data).toHaveLength(count);
  });

  it.each(['limit=0', 'limit=51', 'limit=-1', 'limit=abc'])('refuses %s with a 422', async (query) => {
    const res = await get(`/api/admin/submissions/recent?${query}`);
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
  });
});

describe('GET /api/admin/submissions/pending-ids', () => {
  it('gives the pending ids matching the search, newest first, and how many match', async () => {
    const all = await get('/api/admin/submissions/pending-ids');
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual({ ids: [ids[6], ids[5], ids[3], ids[0]], total: 4, limit: 500 });
    // the search folds Turkish like the list's: "sen" finds Bora Şen
    const bora = await get('/api/admin/submissions/pending-ids?q=sen');
    expect(bora.body.data).toEqual({ ids: [ids[5], ids[3]], total: 2, limit: 500 });
    // status and paging are not the client's to choose: only pending ids come back
    const tricked = await get('/api/admin/submissions/pending-ids?status=approved&limit=1');
    expect(tricked.body.data.ids).toEqual([ids[6], ids[5], ids[3], ids[0]]);
  });

  it("leaves out the admin's own submissions, which they may not review", async () => {
    const admin = await makeUser(t.deps.db, { role: 'admin' });
    const { submissionId } = await makePendingSubmission(t.deps.db, admin._id);
    const own = await t.call('GET', '/api/admin/submissions/pending-ids', { token: await t.tokenFor(admin) });
    expect(own.body.data.ids).not.toContain(submissionId);
    expect(own.body.data.ids).toHaveLength(4);
    // another admin sees it
    const other = await get('/api/admin/submissions/pending-ids');
    expect(other.body.data.ids).toContain(submissionId);
    await t.deps.db
      .updateTable('submissions')
      .set({ status: 'approved' })
      .where('_id', '=', submissionId)
      .execute();
  });

  it('is for admins only, and refuses an overlong search with 422', async () => {
    expect((await t.call('GET', '/api/admin/submissions/pending-ids')).status).toBe(401);
    const userToken = await t.tokenFor(ayse);
    expect((await t.call('GET', '/api/admin/submissions/pending-ids', { token: userToken })).status).toBe(
      403,
    );
    const long = await get(`/api/admin/submissions/pending-ids?q=${'x'.repeat(201)}`);
    expect(long.status).toBe(422);
  });
});

describe("the worker's standing beside a proof", () => {
  it('shows a ban with its reason and a suspension, in the list and in one item', async () => {
    const banned = await makeUser(t.deps.db, { status: 'banned', ban_reason: 'Sahte hesap' });
    const suspended = await makeUser(t.deps.db, { status: 'suspended' });
    const a = await makePendingSubmission(t.deps.db, banned._id);
    const b = await makePendingSubmission(t.deps.db, suspended._id);
    const list = await get('/api/admin/submissions?status=pending&limit=50');
    const byId = new Map(list.body.data.items.map((s: { _id: string }) => [s._id, s]));
    expect(byId.get(a.submissionId)).toMatchObject({ user: { status: 'banned', banReason: 'Sahte hesap' } });
    expect(byId.get(b.submissionId)).toMatchObject({ user: { status: 'suspended', banReason: null } });
    const one = await get(`/api/admin/submissions/${a.submissionId}`);
    expect(one.body.data.user).toMatchObject({ status: 'banned', banReason: 'Sahte hesap' });
  });
});

describe('the review list in each order', () => {
  it('sorts oldest first, newest first, by reward and by flag, takes only a page size of 1 to 100, and ticks all matching in that order', async () => {
    // a worker of her own with four pending proofs from 2020 (older than every other one here)
    const cem = await makeUser(t.deps.db, { name: 'Cem Sıra', email: 'cem@example.test' });
    const mine: string[] = [];
    for (const [n, reward] of [300, 100, 400, 200].entries()) {
      const { submissionId } = await makePendingSubmission(t.deps.db, cem._id, {
        reward,
        createdAt: new Date(Date.UTC(2020, 0, 1 + n)).toISOString(),
      });
      mine.push(submissionId);
    }
    await t.deps.db
      .insertInto('flags')
      .values({
        _id: 'f'.repeat(24),
        item_type: 'submission',
        item_id: mine[2]!,
        user_id: cem._id,
        kind: 'too_fast',
        message_en: 'fast',
        message_tr: 'hızlı',
        created_at: '2026-04-08T00:00:00.000Z',
        dismissed_at: null,
        dismissed_by: null,
        dismiss_note: null,
      })
      .execute();
    const order = async (query: string) => {
      const res = await get(`/api/admin/submissions?status=pending&user=${cem._id}${query}`);
      expect(res.status).toBe(200);
      return idsOf(res.body.data.items);
    };
    const [a, b, c, d] = mine;
    expect(await order('&sort=oldest')).toEqual([a, b, c, d]);
    expect(await order('&sort=newest')).toEqual([d, c, b, a]);
    expect(await order('')).toEqual([d, c, b, a]);
    expect(await order('&sort=reward')).toEqual([c, a, d, b]);
    expect(await order('&sort=flagged')).toEqual([c, a, b, d]);
    expect(await order('&sort=oldest&limit=3&page=2')).toEqual([d]);
    // without a filter the page is read from the index: from its start, and from its far end
    const first = await get('/api/admin/submissions?sort=oldest&limit=2');
    expect(idsOf(first.body.data.items)).toEqual([a, b]);
    const total = first.body.data.total as number;
    const newest = await get('/api/admin/submissions?sort=newest&limit=2');
    const last = await get(`/api/admin/submissions?sort=oldest&limit=1&page=${total}`);
    expect(idsOf(last.body.data.items)).toEqual(idsOf(newest.body.data.items).slice(0, 1));
    const nextToLast = await get(`/api/admin/submissions?sort=oldest&limit=2&page=${total / 2}`);
    if (total % 2 === 0)
      expect(idsOf(nextToLast.body.data.items)).toEqual(idsOf(newest.body.data.items).reverse());
    for (const size of [10, 25, 50, 100]) {
      const res = await get(`/api/admin/submissions?limit=${size}`);
      expect([res.status, res.body.data.limit]).toEqual([200, size]);
    }
    for (const bad of ['sort=cheapest', 'sort=OLDEST', 'limit=101', 'limit=0', 'limit=10.5', 'limit=-1']) {
      const res = await get(`/api/admin/submissions?${bad}`);
      expect([bad, res.status, res.body.error.code]).toEqual([bad, 422, 'validation_error']);
    }
    const ticked = await get(`/api/admin/submissions/pending-ids?sort=flagged&user=${cem._id}`);
    expect(ticked.body.data.ids).toEqual([c, a, b, d]);
    expect((await get('/api/admin/submissions/pending-ids?sort=x')).status).toBe(422);
  });
});
