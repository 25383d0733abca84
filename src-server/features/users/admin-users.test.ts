import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createTestApp, type TestApp, testsOnPostgres } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { activeAdmins } from './admin-users.repository';

let t: TestApp;
let adminToken: string;
const GONE_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const people: Record<string, UserRow> = {};

beforeAll(async () => {
  t = await createTestApp();
  const day = (n: number) => new Date(Date.UTC(2026, 0, n)).toISOString();
  const make = (key: string, overrides: Parameters<typeof makeUser>[1]) =>
    makeUser(t.deps.db, overrides).then((u) => {
      people[key] = u;
    });
  await make('admin', { name: 'Ayla Admin', email: 'ayla@panel.test', role: 'admin', created_at: day(1) });
  await make('mehmet', { name: 'Mehmet Yılmaz', email: 'mehmet@example.test', created_at: day(2) });
  await make('zeynep', {
    name: 'Zeynep Kaya',
    email: 'zk@example.test',
    status: 'suspended',
    created_at: day(3),
    one_signal_id: 'player-zeynep',
  });
  await make('ali', {
    name: 'Ali Veli',
    email: 'ali_100%@example.test',
    status: 'banned',
    ban_reason: 'spam',
    created_at: day(4),
    device_id: 'device-ali',
  });
  await make('blankPush', {
    name: 'Boş Push',
    email: 'blank@example.test',
    one_signal_id: '  ',
    created_at: day(5),
  });
  await make('gone', {
    _id: GONE_ID,
    name: 'Gone User',
    email: 'gone@example.test',
    created_at: day(6),
    deleted_at: day(7),
  });
  for (let n = 0; n < 12; n++) {
    await make(`filler${n}`, { name: `Filler ${n}`, email: `filler${n}@bulk.test`, created_at: day(10 + n) });
  }
  adminToken = await t.tokenFor(people.admin);
});
afterAll(() => t.dispose());

const get = (path: string) => t.call('GET', path, { token: adminToken });
const names = (items: { name: string }[]) => items.map((i) => i.name);

describe('GET /api/admin/users', () => {
  it('pages live accounts newest first, 10 by default, with the totals', async () => {
    const res = await get('/api/admin/users');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 17, page: 1, limit: 10, pages: 2 });
    expect(names(res.body.data.items).slice(0, 2)).toEqual(['Filler 11', 'Filler 10']);
    const second = await get('/api/admin/users?page=2');
    expect(names(second.body.data.items)).toEqual([
      'Filler 1',
      'Filler 0',
      'Boş Push',
      'Ali Veli',
      'Zeynep Kaya',
      'Mehmet Yılmaz',
      'Ayla Admin',
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon2|Gone User/);
  });

  it('shows each row in the list shape, money in lira', async () => {
    await fund(t.deps.db, people.mehmet._id, 1250, people.admin._id);
    const res = await get('/api/admin/users?q=mehmet');
    expect(res.body.data.items).toEqual([
      {
        _id: people.mehmet._id,
        name: 'Mehmet Yılmaz',
        email: 'mehmet@example.test',
        phone: null,
        profileImage: null,
        role: 'user',
        status: 'active',
        banReason: null,
        balance: 12.5,
        totalEarned: 0,
        createdAt: people.mehmet.created_at,
        updatedAt: expect.any(String),
        lastActive: null,
        oneSignalId: null,
        device_id: null,
      },
    ]);
  });

  it.each<[string, string, string[]]>([
    ['a name, in any case', 'q=ZEYNEP', ['Zeynep Kaya']],
    ['part of an email', 'q=example.test', ['Boş Push', 'Ali Veli', 'Zeynep Kaya', 'Mehmet Yılmaz']],
    ['LIKE wildcards taken literally', 'q=100%25', ['Ali Veli']],
    ['an underscore taken literally', 'q=i_1', ['Ali Veli']],
    ['active', 'status=active&limit=100', ['Boş Push', 'Mehmet Yılmaz', 'Ayla Admin']],
    ['suspended', 'status=suspended', ['Zeynep Kaya']],
    ['banned', 'status=banned', ['Ali Veli']],
    ['admins', 'status=admin', ['Ayla Admin']],
    ['a push id or device id (a blank one does not count)', 'status=push', ['Ali Veli', 'Zeynep Kaya']],
    ['a search inside a filter', 'status=push&q=zeynep', ['Zeynep Kaya']],
    ['nothing found', 'q=nobody-here', []],
    ['a deleted account never', 'q=gone', []],
  ])('filters by %s', async (_label, query, expected) => {
    const res = await get(`/api/admin/users?${query}`);
    expect(res.status).toBe(200);
    const found = names(res.body.data.items).filter((n) => !n.startsWith('Filler'));
    expect(found).toEqual(expected);
  });

  it('answers an empty page past the end', async () => {
    const res = await get('/api/admin/users?page=9');
    expect(res.body.data).toMatchObject({ items: [], total: 17, page: 9, pages: 2 });
  });

  it.each([
    'status=deleted',
    'page=0',
    'page=abc',
    'limit=0',
    'limit=101',
    'limit=1.5',
    `q=${'x'.repeat(201)}`,
  ])('refuses the query %s with a 422', async (query) => {
    const res = await get(`/api/admin/users?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
  });
});

describe('GET /api/admin/users/{id}', () => {
  it('returns the detail with totalEarned, balance, pending balance and last activity', async () => {
    const user = await makeUser(t.deps.db, {
      name: 'Detay',
      last_active: '2026-02-01T10:00:00.000Z',
      total_earned: 4000,
    });
    await fund(t.deps.db, user._id, 2550, people.admin._id);
    await makePendingSubmission(t.deps.db, user._id, { reward: 700 });
    const res = await get(`/api/admin/users/${user._id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: user._id,
      name: 'Detay',
      balance: 25.5,
      totalEarned: 40,
      totalEarnings: 40,
      pendingBalance: 7,
      pendingTasks: 1,
      lastActive: '2026-02-01T10:00:00.000Z',
      createdAt: user.created_at,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon2/);
  });

  it.each([
    ['an unknown id', () => '0123456789abcdef01234567'],
    ['a deleted account', () => GONE_ID],
  ])('answers 404 user_not_found for %s', async (_label, id) => {
    const res = await get(`/api/admin/users/${id()}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'user_not_found', message: 'User not found' });
  });
});

describe("a user's history in the detail screen", () => {
  it('lists their submissions newest first, with signed proof URLs, one page at a time', async () => {
    const user = await makeUser(t.deps.db);
    const other = await makeUser(t.deps.db);
    await makePendingSubmission(t.deps.db, other._id);
    const first = await makePendingSubmission(t.deps.db, user._id, { createdAt: '2026-03-01T00:00:00.000Z' });
    const second = await makePendingSubmission(t.deps.db, user._id, {
      createdAt: '2026-03-02T00:00:00.000Z',
    });
    const res = await get(`/api/admin/users/${user._id}/submissions`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 2, page: 1, limit: 20, pages: 1 });
    expect(res.body.data.items.map((s: { _id: string }) => s._id)).toEqual([
      second.submissionId,
      first.submissionId,
    ]);
    expect(res.body.data.items[0]).toMatchObject({ status: 'pending', reward: 10, user: { _id: user._id } });
    const paged = await get(`/api/admin/users/${user._id}/submissions?limit=1&page=2`);
    expect(paged.body.data).toMatchObject({ total: 2, pages: 2, items: [{ _id: first.submissionId }] });
  });

  it('lists their withdrawals with full account numbers, like GET /api/admin/withdraws?userId=', async () => {
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 20_000, people.admin._id);
    const id = await makeWithdrawal(t.deps.db, user._id, { amount: 5000 });
    const res = await get(`/api/admin/users/${user._id}/withdrawals`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      total: 1,
      items: [
        { _id: id, amount: 50, accountDetails: { accountNumber: '1234567890' }, user: { _id: user._id } },
      ],
    });
    const same = await get(`/api/admin/withdraws?userId=${user._id}`);
    expect(same.body.data.items).toEqual(res.body.data.items);
  });

  it.each(['submissions', 'withdrawals'])('answers 404 for the %s of an unknown user', async (kind) => {
    const res = await get(`/api/admin/users/0123456789abcdef01234567/${kind}`);
    expect([res.status, res.body.error.code]).toEqual([404, 'user_not_found']);
  });

  it.each(['submissions', 'withdrawals'])('refuses a bad page for %s with a 422', async (kind) => {
    const res = await get(`/api/admin/users/${people.mehmet._id}/${kind}?page=-1`);
    expect(res.status).toBe(422);
  });
});

describe('the count of active admins', () => {
  it('is answered from an index by role and status, not a walk of every active user', async () => {
    // it runs at every start (is setup done?) and inside the transaction that edits an admin:
    // the walk took 0.1-0.8 s at 100,000 users, the write lock held as long
    if (testsOnPostgres) {
      const { rows } = await sql<{ indexdef: string }>`
        SELECT indexdef FROM pg_indexes WHERE indexname = 'users_role_status'`.execute(t.deps.db);
      expect(rows[0]?.indexdef).toMatch(/\(role, status, _id\) WHERE \(deleted_at IS NULL\)/);
      return;
    }
    const compiled = activeAdmins(t.deps.db, 'someone').compile();
    const plan = await t.deps.db.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
    });
    expect(plan.rows.map((r) => r.detail)).toEqual([
      'SEARCH users USING INDEX users_role_status (role=? AND status=?)',
    ]);
  });
});
