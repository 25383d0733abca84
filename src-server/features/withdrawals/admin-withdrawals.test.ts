import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund, makeIban, makeWithdrawal } from '../../testing/money-factories';
import { createAdminTestApp, createTestApp, type TestApp } from '../../testing/test-app';
import { runMoneyChecks } from '../money/doctor';
import type { UserRow } from '../users/users.repository';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
beforeAll(async () => {
  ({ t, admin, adminToken } = await createAdminTestApp());
});
afterAll(async () => {
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  await t.dispose();
});

async function pendingWithdrawal(amount = 3000) {
  const user = await makeUser(t.deps.db);
  await fund(t.deps.db, user._id, 10_000);
  return { user, id: await makeWithdrawal(t.deps.db, user._id, { amount }) };
}
const row = (id: string) =>
  t.deps.db.selectFrom('withdrawals').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const balanceOf = async (id: string) =>
  (await t.deps.db.selectFrom('users').select('balance').where('_id', '=', id).executeTakeFirstOrThrow())
    .balance;
const refunds = (id: string) =>
  t.deps.db
    .selectFrom('ledger')
    .selectAll()
    .where('ref', '=', id)
    .where('kind', '=', 'withdrawal_refund')
    .execute();
// null: no token at all (undefined would pick the admin's)
const approve = (id: string, token: string | null = adminToken) =>
  t.call('PUT', `/api/admin/withdraws/${id}/approve`, { token: token ?? undefined });
const reject = (
  id: string,
  body: unknown = { reason: 'IBAN sahibi farklı' },
  token: string | null = adminToken,
) => t.call('PUT', `/api/admin/withdraws/${id}/reject`, { body, token: token ?? undefined });

describe('the admin withdrawal routes refuse', () => {
  const who: [string, () => Promise<string | null>, number, string][] = [
    ['a visitor', async () => null, 401, 'unauthorized'],
    ['a user', async () => t.tokenFor(await makeUser(t.deps.db)), 403, 'forbidden'],
    [
      'a banned admin',
      async () => t.tokenFor(await makeUser(t.deps.db, { role: 'admin', status: 'banned' })),
      403,
      'banned',
    ],
  ];
  it.each(who)('%s the list', async (_who, token, status, code) => {
    const res = await t.call('GET', '/api/admin/withdraws', { token: (await token()) ?? undefined });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
  });
  it.each(who)('%s an approval', async (_who, token, status, code) => {
    const { id } = await pendingWithdrawal();
    const res = await approve(id, await token());
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect((await row(id)).status).toBe('pending');
  });
  it.each(who)('%s a rejection', async (_who, token, status, code) => {
    const { id } = await pendingWithdrawal();
    const res = await reject(id, { reason: 'x' }, await token());
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect((await row(id)).status).toBe('pending');
  });
});

describe('PUT /api/admin/withdraws/{id}/approve', () => {
  it('approves a pending withdrawal for good, keeping the amount taken', async () => {
    const { user, id } = await pendingWithdrawal(3000);
    const res = await approve(id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: id,
      status: 'approved',
      amount: 30,
      accountDetails: { accountNumber: '1234567890' },
      user: { _id: user._id },
    });
    expect(res.body.data.reviewedAt).toEqual(expect.any(String));
    expect(await row(id)).toMatchObject({ status: 'approved', reviewed_by: admin._id });
    expect(await balanceOf(user._id)).toBe(7000);
    expect(await refunds(id)).toEqual([]);
  });

  it('refuses a withdrawal that does not exist with withdrawal_not_found', async () => {
    const res = await approve('nope');
    expect([res.status, res.body.error.code]).toEqual([404, 'withdrawal_not_found']);
  });
});

describe('PUT /api/admin/withdraws/{id}/reject', () => {
  it('stores the reason and gives the held amount back with one refund row', async () => {
    const { user, id } = await pendingWithdrawal(3000);
    const res = await reject(id, { reason: '  IBAN sahibi farklı  ' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: id,
      status: 'rejected',
      rejectionReason: 'IBAN sahibi farklı',
    });
    expect(await balanceOf(user._id)).toBe(10_000);
    expect(await refunds(id)).toMatchObject([{ amount: 3000, user_id: user._id, actor_id: admin._id }]);
  });

  it.each<[string, unknown, string, string]>([
    ['no reason', {}, 'reason_required', 'You must enter a rejection reason'],
    ['a blank reason', { reason: '   ' }, 'reason_required', 'You must enter a rejection reason'],
    ['a reason that is not text', { reason: 5 }, 'reason_required', 'You must enter a rejection reason'],
    [
      'a reason over 500 characters',
      { reason: 'x'.repeat(501) },
      'validation_error',
      'This value is too long',
    ],
  ])('refuses %s', async (_name, body, code, message) => {
    const { user, id } = await pendingWithdrawal();
    const res = await reject(id, body);
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([422, code, message]);
    expect((await row(id)).status).toBe('pending');
    expect(await balanceOf(user._id)).toBe(7000);
  });

  it('refuses a withdrawal that does not exist with withdrawal_not_found', async () => {
    const res = await reject('nope');
    expect([res.status, res.body.error.code]).toEqual([404, 'withdrawal_not_found']);
  });
});

describe('settling a withdrawal twice', () => {
  it.each<[string, 'approve' | 'reject', 'approve' | 'reject']>([
    ['refuses a second approval', 'approve', 'approve'],
    ['refuses to reject an approved withdrawal', 'approve', 'reject'],
    ['refuses to approve a rejected withdrawal', 'reject', 'approve'],
    ['refuses a second rejection (no second refund)', 'reject', 'reject'],
  ])('%s with 409 already_reviewed', async (_name, first, second) => {
    const { user, id } = await pendingWithdrawal(3000);
    const act = (what: 'approve' | 'reject') => (what === 'approve' ? approve(id) : reject(id));
    expect((await act(first)).status).toBe(200);
    const [before, balance] = [await row(id), await balanceOf(user._id)];
    const res = await act(second);
    expect([res.status, res.body.error.code]).toEqual([409, 'already_reviewed']);
    expect(await row(id)).toEqual(before);
    expect(await balanceOf(user._id)).toBe(balance);
    expect((await refunds(id)).length).toBe(first === 'reject' ? 1 : 0);
  });
});

describe('GET /api/admin/withdraws', () => {
  let l: TestApp;
  let token: string;
  const ids: Record<string, string> = {};
  let ayse: UserRow;
  const IBAN = makeIban();

  beforeAll(async () => {
    l = await createTestApp();
    token = await l.tokenFor(await makeUser(l.deps.db, { role: 'admin' }));
    ayse = await makeUser(l.deps.db, { name: 'Ayşe Kaya' });
    const mehmet = await makeUser(l.deps.db, { name: 'Mehmet Demir' });
    await fund(l.deps.db, ayse._id, 100_000);
    await fund(l.deps.db, mehmet._id, 100_000);
    const w = (key: string, userId: string, o: Parameters<typeof makeWithdrawal>[2]) =>
      makeWithdrawal(l.deps.db, userId, o).then((id) => {
        ids[key] = id;
      });
    // 2026-03-04T21:30Z is 5 March 00:30 in Turkey
    await w('a', ayse._id, { amount: 2000, created_at: '2026-03-01T09:00:00.000Z' });
    await w('b', ayse._id, {
      amount: 2500,
      created_at: '2026-03-04T21:30:00.000Z',
      payment_method: 'iban',
      account_number: IBAN,
      full_name: 'Ayşe Kaya',
    });
    await w('c', mehmet._id, {
      amount: 3000,
      created_at: '2026-03-05T12:00:00.000Z',
      full_name: 'Hesap 100%',
    });
    await w('d', mehmet._id, { amount: 3500, created_at: '2026-03-10T20:59:59.000Z', status: 'approved' });
    await w('e', mehmet._id, {
      amount: 4000,
      created_at: '2026-03-10T21:00:00.000Z',
      account_number: '5555500000',
    });
  });
  afterAll(async () => {
    expect(await runMoneyChecks(l.deps.db)).toEqual([]);
    await l.dispose();
  });

  const list = async (query: string) => {
    const res = await l.call('GET', `/api/admin/withdraws${query}`, { token });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const keysOf = (data: { items: { _id: string }[] }) =>
    data.items.map((item) => Object.keys(ids).find((k) => ids[k] === item._id));

  it('refuses a date range whose start is after its end with 422 on `to`', async () => {
    const res = await l.call('GET', '/api/admin/withdraws?from=2026-11-10&to=2026-11-01', { token });
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual({ to: 'The end date is before the start date' });
    expect(
      (await l.call('GET', '/api/admin/withdraws?from=2026-11-01&to=2026-11-01', { token })).status,
    ).toBe(200);
  });

  it('lists every withdrawal newest first with the page figures', async () => {
    const data = await list('');
    expect(keysOf(data)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(data).toMatchObject({ total: 5, page: 1, limit: 20, pages: 1 });
  });

  it('shows admins the whole account number and the user', async () => {
    const data = await list(`?q=${IBAN}`);
    expect(data.items).toEqual([
      {
        _id: ids.b,
        amount: 25,
        paymentMethod: 'iban',
        accountDetails: { fullName: 'Ayşe Kaya', accountNumber: IBAN },
        status: 'pending',
        createdAt: '2026-03-04T21:30:00.000Z',
        updatedAt: '2026-03-04T21:30:00.000Z',
        reviewedAt: null,
        rejectionReason: null,
        description: null,
        user: { _id: ayse._id, name: 'Ayşe Kaya' },
        flags: [],
      },
    ]);
  });

  it.each<[string, string, string[]]>([
    ['status', '?status=approved', ['d']],
    ['status all', '?status=all', ['e', 'd', 'c', 'b', 'a']],
    ['a start day in Turkish time', '?from=2026-03-05', ['e', 'd', 'c', 'b']],
    ['an end day, inclusive, in Turkish time', '?to=2026-03-04', ['a']],
    ['a single day', '?from=2026-03-10&to=2026-03-10', ['d']],
    ['a day range', '?from=2026-03-02&to=2026-03-10', ['d', 'c', 'b']],
    ['the user name', '?q=mehmet', ['e', 'd', 'c']],
    ['the account holder', '?q=Hesap', ['c']],
    ['the account number', '?q=55555', ['e']],
    [
      'the IBAN typed with spaces',
      `?q=${encodeURIComponent(IBAN.slice(0, 8).replace(/(.{4})/g, '$1 '))}`,
      ['b'],
    ],
    ['a percent sign taken literally', '?q=100%25', ['c']],
    ['an underscore taken literally', '?q=_', []],
    ['the user id', `?userId=USER`, ['b', 'a']],
    ['status and user together', '?status=pending&q=mehmet', ['e', 'c']],
    ['empty values as no filter', '?status=&from=&to=&q=&userId=', ['e', 'd', 'c', 'b', 'a']],
  ])('filters by %s', async (_name, query, expected) => {
    expect(keysOf(await list(query.replace('USER', ayse._id)))).toEqual(expected);
  });

  it('pages on the server', async () => {
    const second = await list('?page=2&limit=2');
    expect(keysOf(second)).toEqual(['c', 'b']);
    expect(second).toMatchObject({ total: 5, page: 2, limit: 2, pages: 3 });
    const beyond = await list('?page=9&limit=2');
    expect(beyond).toMatchObject({ items: [], total: 5, page: 9, pages: 3 });
  });

  it.each([
    ['?status=paid'],
    ['?from=2026-13-01'],
    ['?from=2026-02-30'],
    ['?to=yesterday'],
    ['?page=0'],
    ['?page=abc'],
    ['?limit=101'],
    ['?limit=1.5'],
    [`?q=${'x'.repeat(101)}`],
  ])('refuses the query %s with 422', async (query) => {
    const res = await l.call('GET', `/api/admin/withdraws${query}`, { token });
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
  });
});
