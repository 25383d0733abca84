import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund, makeIban, makeWithdrawal } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { runMoneyChecks } from '../money/doctor';
import { writeSection } from '../settings/settings.repository';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  await t.dispose();
});
afterEach(async () => {
  await t.deps.db.deleteFrom('settings').execute();
});

const IBAN = makeIban();
const papara = {
  paymentMethod: 'papara',
  accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber: '1234567890' },
};

/** A signed-in user holding `balance` kuruş. */
async function holder(balance = 10_000, overrides: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(t.deps.db, overrides);
  if (balance > 0) await fund(t.deps.db, user._id, balance);
  return { user, token: await t.tokenFor(user) };
}
const withdraw = (token: string, body: unknown, headers?: Record<string, string>) =>
  t.call('POST', '/api/withdraws', { body, token, headers });
const balanceOf = async (id: string) =>
  (await t.deps.db.selectFrom('users').select('balance').where('_id', '=', id).executeTakeFirstOrThrow())
    .balance;
const withdrawalsOf = (id: string) =>
  t.deps.db.selectFrom('withdrawals').selectAll().where('user_id', '=', id).execute();

describe('POST /api/withdraws refuses', () => {
  it.each<[string, Parameters<typeof makeUser>[1], number, string]>([
    ['a suspended user', { status: 'suspended' }, 403, 'suspended'],
    ['a banned user', { status: 'banned' }, 403, 'banned'],
  ])('%s', async (_who, overrides, status, code) => {
    const { user, token } = await holder(10_000, overrides);
    const res = await withdraw(token, { amount: 50, ...papara });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(await balanceOf(user._id)).toBe(10_000);
  });

  it('a visitor', async () => {
    const res = await t.call('POST', '/api/withdraws', { body: { amount: 50, ...papara } });
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthorized']);
  });

  it.each<[string, string]>([
    ['-1', '-1'],
    ['0', '0'],
    ['-0', '-0'],
    ['0.001', '0.001'],
    ['1.005', '1.005'],
    ['"12,50"', '"12,50"'],
    ['"abc"', '"abc"'],
    ['a number as text', '"25"'],
    ['1e309 (Infinity)', '1e309'],
    ['null', 'null'],
    ['an array', '[25]'],
    ['an object', '{"tl":25}'],
    ['true', 'true'],
    ['1e20 (beyond safe kuruş)', '1e20'],
  ])('the amount %s with 422 invalid_amount', async (_name, amount) => {
    const { user, token } = await holder();
    const raw = `{"amount":${amount},"paymentMethod":"papara","accountDetails":{"fullName":"A","accountNumber":"1234567890"}}`;
    const res = await withdraw(token, raw);
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      422,
      'invalid_amount',
      'Please enter a valid amount',
    ]);
    expect(res.body.error.errors).toEqual({ amount: 'Please enter a valid amount' });
    expect(await withdrawalsOf(user._id)).toEqual([]);
  });

  it('a missing amount with 422 invalid_amount', async () => {
    const { token } = await holder();
    const res = await withdraw(token, papara);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_amount']);
  });

  it.each<[string, number | undefined, number, string]>([
    ['the default minimum', undefined, 19.99, '₺20.00'],
    ['a minimum set by the admin', 50, 49.5, '₺50.00'],
    ['a minimum with kuruş', 12.5, 12.49, '₺12.50'],
  ])('an amount below %s with the lira amount in the message', async (_name, minimum, amount, lira) => {
    if (minimum !== undefined)
      await writeSection(t.deps.db, 'payment', { minimumPayout: minimum }, new Date().toISOString());
    const { token } = await holder();
    const res = await withdraw(token, { amount, ...papara });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'below_minimum',
      message: `The minimum payout amount is ${lira}`,
      amount: lira,
      errors: { amount: `The minimum payout amount is ${lira}` },
    });
  });

  it('an amount above the balance with insufficient_balance', async () => {
    const { user, token } = await holder(10_000);
    const res = await withdraw(token, { amount: 100.01, ...papara });
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      422,
      'insufficient_balance',
      'Insufficient balance',
    ]);
    expect(await balanceOf(user._id)).toBe(10_000);
  });

  it.each<[string, unknown, string]>([
    ['no account details', undefined, 'accountDetails.fullName'],
    ['account details that are text', 'Ayşe 1234567890', 'accountDetails.fullName'],
    ['no full name', { accountNumber: '1234567890' }, 'accountDetails.fullName'],
    ['a blank full name', { fullName: '  ', accountNumber: '1234567890' }, 'accountDetails.fullName'],
    ['no account number', { fullName: 'Ayşe' }, 'accountDetails.accountNumber'],
    [
      'an account number that is a number',
      { fullName: 'Ayşe', accountNumber: 1234567890 },
      'accountDetails.accountNumber',
    ],
  ])('%s with account_details_required', async (_name, accountDetails, field) => {
    const { token } = await holder();
    const res = await withdraw(token, { amount: 50, paymentMethod: 'papara', accountDetails });
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      422,
      'account_details_required',
      'Please fill in all account details completely',
    ]);
    expect(Object.keys(res.body.error.errors)).toEqual([field]);
  });

  it.each<[string, unknown, string, string[] | undefined]>([
    ['an unknown method', { ...papara, paymentMethod: 'bitcoin' }, 'method_unavailable', undefined],
    ['a missing method', { accountDetails: papara.accountDetails }, 'method_unavailable', undefined],
    ['a method the settings switched off', papara, 'method_unavailable', ['iban']],
    [
      'an IBAN with a wrong check digit',
      {
        paymentMethod: 'iban',
        accountDetails: { fullName: 'A', accountNumber: 'TR340006100519786457841326' },
      },
      'invalid_iban',
      undefined,
    ],
    [
      'an IBAN of another country',
      { paymentMethod: 'iban', accountDetails: { fullName: 'A', accountNumber: 'DE89370400440532013000' } },
      'invalid_iban',
      undefined,
    ],
    [
      'an IBAN too short',
      { paymentMethod: 'iban', accountDetails: { fullName: 'A', accountNumber: 'TR3300061005' } },
      'invalid_iban',
      undefined,
    ],
    [
      'a Papara number of 9 digits',
      { paymentMethod: 'papara', accountDetails: { fullName: 'A', accountNumber: '123456789' } },
      'invalid_papara',
      undefined,
    ],
    [
      'a Papara number with letters',
      { paymentMethod: 'papara', accountDetails: { fullName: 'A', accountNumber: '12345abcde' } },
      'invalid_papara',
      undefined,
    ],
    [
      'an IBAN given as a Papara number',
      { paymentMethod: 'papara', accountDetails: { fullName: 'A', accountNumber: IBAN } },
      'invalid_papara',
      undefined,
    ],
  ])('%s', async (_name, body, code, methods) => {
    if (methods) await writeSection(t.deps.db, 'payment', { methods }, new Date().toISOString());
    const { user, token } = await holder();
    const res = await withdraw(token, { amount: 50, ...(body as object) });
    expect([res.status, res.body.error.code]).toEqual([422, code]);
    expect(await withdrawalsOf(user._id)).toEqual([]);
    expect(await balanceOf(user._id)).toBe(10_000);
  });

  it('a body that is not JSON with 400', async () => {
    const { token } = await holder();
    const res = await withdraw(token, 'amount=50');
    expect([res.status, res.body.error.code]).toEqual([400, 'malformed_json']);
  });
});

describe('POST /api/withdraws', () => {
  it('holds the amount at once and answers with the pending withdrawal', async () => {
    const { user, token } = await holder(10_000);
    const res = await withdraw(token, { amount: 25.5, ...papara });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        _id: expect.any(String),
        amount: 25.5,
        paymentMethod: 'papara',
        accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber: '******7890' },
        status: 'pending',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        reviewedAt: null,
        rejectionReason: null,
        description: null,
        user: { _id: user._id, name: user.name },
      },
    });
    expect(await balanceOf(user._id)).toBe(10_000 - 2550);
    const [row] = await withdrawalsOf(user._id);
    expect(row).toMatchObject({ amount: 2550, status: 'pending', account_number: '1234567890' });
    const hold = await t.deps.db.selectFrom('ledger').selectAll().where('ref', '=', row._id).execute();
    expect(hold).toMatchObject([{ kind: 'withdrawal_hold', amount: -2550, user_id: user._id }]);
  });

  it('takes 0.29 as exactly 29 kuruş', async () => {
    await writeSection(t.deps.db, 'payment', { minimumPayout: 0 }, new Date().toISOString());
    const { user, token } = await holder(100);
    const res = await withdraw(token, { amount: 0.29, ...papara });
    expect([res.status, res.body.data.amount]).toEqual([201, 0.29]);
    expect((await withdrawalsOf(user._id))[0].amount).toBe(29);
    expect(await balanceOf(user._id)).toBe(71);
  });

  it('allows the whole balance, leaving zero', async () => {
    const { user, token } = await holder(5000);
    expect((await withdraw(token, { amount: 50, ...papara })).status).toBe(201);
    expect(await balanceOf(user._id)).toBe(0);
    const again = await withdraw(token, { amount: 20, ...papara });
    expect(again.body.error.code).toBe('insufficient_balance');
  });

  it('stores an IBAN typed with spaces in its normal form', async () => {
    const { user, token } = await holder();
    const spaced = IBAN.toLowerCase().replace(/(.{4})/g, '$1 ');
    const res = await withdraw(token, {
      amount: 50,
      paymentMethod: 'iban',
      accountDetails: { fullName: ' Ali Veli ', accountNumber: spaced },
    });
    expect(res.status).toBe(201);
    expect((await withdrawalsOf(user._id))[0]).toMatchObject({
      account_number: IBAN,
      full_name: 'Ali Veli',
      payment_method: 'iban',
    });
    expect(res.body.data.accountDetails.accountNumber).toBe(`${'*'.repeat(22)}${IBAN.slice(-4)}`);
  });

  it('ignores fields the request does not name', async () => {
    const { user, token } = await holder();
    const res = await withdraw(token, {
      amount: 50,
      ...papara,
      status: 'approved',
      userId: 'someone',
      description: 'x',
    });
    expect(res.status).toBe(201);
    expect((await withdrawalsOf(user._id))[0]).toMatchObject({ status: 'pending', description: null });
  });
});

describe('GET /api/withdraws', () => {
  it("lists only the user's own withdrawals, newest first, masked", async () => {
    const { user, token } = await holder(20_000);
    const other = await holder(20_000);
    await makeWithdrawal(t.deps.db, user._id, { amount: 2000, created_at: '2026-01-01T10:00:00.000Z' });
    await makeWithdrawal(t.deps.db, user._id, { amount: 3000, created_at: '2026-02-01T10:00:00.000Z' });
    await makeWithdrawal(t.deps.db, other.user._id, { amount: 4000 });
    const res = await t.call('GET', '/api/withdraws', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((w: { amount: number }) => w.amount)).toEqual([30, 20]);
    expect(res.body.data[0].accountDetails.accountNumber).toBe('******7890');
  });

  it('shows a suspended user their history', async () => {
    const { user, token } = await holder(20_000, { status: 'suspended' });
    await makeWithdrawal(t.deps.db, user._id, { amount: 2000 });
    const res = await t.call('GET', '/api/withdraws', { token });
    expect([res.status, res.body.data.length]).toEqual([200, 1]);
  });

  it('shows an admin their own account numbers unmasked', async () => {
    const { user, token } = await holder(20_000, { role: 'admin' });
    await makeWithdrawal(t.deps.db, user._id, { amount: 2000 });
    const res = await t.call('GET', '/api/withdraws', { token });
    expect(res.body.data[0].accountDetails.accountNumber).toBe('1234567890');
  });

  it('refuses a visitor', async () => {
    expect((await t.call('GET', '/api/withdraws')).status).toBe(401);
  });
});
