import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { burst, fund, makeIban } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import { runMoneyChecks } from '../money/doctor';
import { writeSection } from '../settings/settings.repository';
import { checkDeletedUsers } from '../users/deleted-user-doctor';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  ({ t, adminToken } = await createAdminTestApp());
});
afterEach(async () => {
  await t.deps.db.deleteFrom('settings').execute();
});
afterAll(async () => {
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  expect(await checkDeletedUsers(t.deps.db)).toEqual([]);
  await t.dispose();
});

const IBAN = makeIban();
const OTHER_IBAN = makeIban('0001000000000000000001');
const viaIban = (fullName = 'Ayşe Yılmaz', accountNumber = IBAN) => ({
  paymentMethod: 'iban',
  accountDetails: { fullName, accountNumber },
});

async function worker(balance = 100_000) {
  const user = await makeUser(t.deps.db);
  if (balance > 0) await fund(t.deps.db, user._id, balance);
  return { user, token: await t.tokenFor(user) };
}
const withdraw = (token: string, body: unknown) => t.call('POST', '/api/withdraws', { body, token });
const saved = (token: string) => t.call('GET', '/api/withdraws/account', { token });
const storedRows = (userId: string) =>
  t.deps.db.selectFrom('payout_accounts').selectAll().where('user_id', '=', userId).execute();
const withdrawalsOf = (userId: string) =>
  t.deps.db.selectFrom('withdrawals').selectAll().where('user_id', '=', userId).execute();

describe('the saved payout account', () => {
  it('is none before the first withdrawal', async () => {
    const { token } = await worker();
    const res = await saved(token);
    expect([res.status, res.body.data]).toEqual([200, null]);
  });

  it('is remembered with a withdrawal, shown masked, and used again with the amount alone', async () => {
    const { user, token } = await worker();
    // typed with spaces and lower case: stored as the withdrawal stores it
    const typed = IBAN.toLowerCase().replace(/(.{4})/g, '$1 ');
    expect((await withdraw(token, { amount: 50, ...viaIban('  Ayşe Yılmaz ', typed) })).status).toBe(201);
    const res = await saved(token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      paymentMethod: 'iban',
      fullName: 'Ayşe Yılmaz',
      accountNumber: `${'*'.repeat(IBAN.length - 4)}${IBAN.slice(-4)}`,
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain(IBAN.slice(4, 20));
    expect(await storedRows(user._id)).toEqual([
      expect.objectContaining({ payment_method: 'iban', full_name: 'Ayşe Yılmaz', account_number: IBAN }),
    ]);

    // the repeat: only the amount and the flag
    const again = await withdraw(token, { amount: 25, useSavedAccount: true });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const rows = await withdrawalsOf(user._id);
    expect(rows.map((w) => [w.amount, w.payment_method, w.full_name, w.account_number]).sort()).toEqual([
      [2500, 'iban', 'Ayşe Yılmaz', IBAN],
      [5000, 'iban', 'Ayşe Yılmaz', IBAN],
    ]);
  });

  it('is replaced by a withdrawal to another account (one row per worker)', async () => {
    const { user, token } = await worker();
    expect((await withdraw(token, { amount: 30, ...viaIban() })).status).toBe(201);
    const papara = {
      paymentMethod: 'papara',
      accountDetails: { fullName: 'Ayşe Y.', accountNumber: '1234 567 890' },
    };
    expect((await withdraw(token, { amount: 30, ...papara })).status).toBe(201);
    expect(await storedRows(user._id)).toEqual([
      expect.objectContaining({
        payment_method: 'papara',
        full_name: 'Ayşe Y.',
        account_number: '1234567890',
      }),
    ]);
    expect((await saved(token)).body.data).toMatchObject({
      paymentMethod: 'papara',
      accountNumber: '******7890',
    });
  });

  it('is not touched by a refused withdrawal', async () => {
    const { user, token } = await worker(3000);
    expect((await withdraw(token, { amount: 25, ...viaIban() })).status).toBe(201);
    // too much, then a bad IBAN: both refused, the saved account stays
    expect((await withdraw(token, { amount: 25, ...viaIban('X', OTHER_IBAN) })).body.error.code).toBe(
      'insufficient_balance',
    );
    await fund(t.deps.db, user._id, 10_000);
    expect((await withdraw(token, { amount: 25, ...viaIban('X', 'TR00') })).body.error.code).toBe(
      'invalid_iban',
    );
    expect((await storedRows(user._id)).map((r) => r.account_number)).toEqual([IBAN]);
  });

  it('passes the same rules again when used: a method no longer offered is refused', async () => {
    const { user, token } = await worker();
    expect((await withdraw(token, { amount: 25, ...viaIban() })).status).toBe(201);
    await writeSection(t.deps.db, 'payment', { methods: ['papara'] }, new Date().toISOString());
    const res = await withdraw(token, { amount: 25, useSavedAccount: true });
    expect([res.status, res.body.error.code]).toEqual([422, 'method_unavailable']);
    expect(await withdrawalsOf(user._id)).toHaveLength(1);
  });

  it('checks the amount of a repeat as any other: minimum, balance', async () => {
    const { token } = await worker(6000);
    expect((await withdraw(token, { amount: 25, ...viaIban() })).status).toBe(201);
    expect((await withdraw(token, { amount: 5, useSavedAccount: true })).body.error.code).toBe(
      'below_minimum',
    );
    expect((await withdraw(token, { amount: 40, useSavedAccount: true })).body.error.code).toBe(
      'insufficient_balance',
    );
  });

  it('can be forgotten by its owner, after which a repeat is refused with no_saved_account', async () => {
    const { user, token } = await worker();
    expect((await withdraw(token, { amount: 25, ...viaIban() })).status).toBe(201);
    const gone = await t.call('DELETE', '/api/withdraws/account', { token });
    expect([gone.status, gone.body.data]).toEqual([200, { forgotten: true }]);
    expect(await storedRows(user._id)).toEqual([]);
    expect((await t.call('DELETE', '/api/withdraws/account', { token })).body.data).toEqual({
      forgotten: false,
    });
    const res = await withdraw(token, { amount: 25, useSavedAccount: true });
    expect([res.status, res.body.error.code, res.body.error.errors]).toEqual([
      422,
      'no_saved_account',
      { useSavedAccount: 'No payout account is saved: enter one' },
    ]);
    expect(await withdrawalsOf(user._id)).toHaveLength(1);
  });
});

describe('the saved payout account refuses', () => {
  it.each<[string, Record<string, unknown>]>([
    ['useSavedAccount that is not true', { useSavedAccount: 'yes' }],
    ['useSavedAccount false', { useSavedAccount: false }],
    [
      'account details beside useSavedAccount',
      { useSavedAccount: true, accountDetails: { fullName: 'Eve', accountNumber: OTHER_IBAN } },
    ],
    ['a method beside useSavedAccount', { useSavedAccount: true, paymentMethod: 'papara' }],
  ])('%s, writing nothing', async (_label, extra) => {
    const { user, token } = await worker();
    expect((await withdraw(token, { amount: 25, ...viaIban() })).status).toBe(201);
    const res = await withdraw(token, { amount: 25, ...extra });
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
    expect(res.body.error.errors).toHaveProperty('useSavedAccount');
    expect(await withdrawalsOf(user._id)).toHaveLength(1);
    expect((await storedRows(user._id)).map((r) => r.account_number)).toEqual([IBAN]);
  });

  it("to show or forget another worker's account, whatever the body or query names", async () => {
    const a = await worker();
    const b = await worker();
    expect((await withdraw(a.token, { amount: 25, ...viaIban() })).status).toBe(201);
    // b asks with a's id in every place a client could put it: b sees and forgets only b's own
    const seen = await t.call('GET', `/api/withdraws/account?userId=${a.user._id}&user_id=${a.user._id}`, {
      token: b.token,
    });
    expect(seen.body.data).toBeNull();
    const del = await t.call('DELETE', `/api/withdraws/account?userId=${a.user._id}`, {
      token: b.token,
      body: { userId: a.user._id, user_id: a.user._id },
    });
    expect([del.status, del.body.error.code]).toEqual([422, 'validation_error']);
    expect(
      (await t.call('DELETE', `/api/withdraws/account?userId=${a.user._id}`, { token: b.token })).body.data,
    ).toEqual({
      forgotten: false,
    });
    expect(await storedRows(a.user._id)).toHaveLength(1);
  });

  it('a withdrawal body that tries to write the saved row for someone else', async () => {
    const a = await worker();
    const b = await worker();
    const res = await withdraw(b.token, {
      amount: 25,
      ...viaIban('Bob', OTHER_IBAN),
      user_id: a.user._id,
      userId: a.user._id,
      updated_at: '2000-01-01T00:00:00.000Z',
    });
    expect(res.status).toBe(201);
    expect(await storedRows(a.user._id)).toEqual([]);
    const [row] = await storedRows(b.user._id);
    expect(row).toMatchObject({ user_id: b.user._id, account_number: OTHER_IBAN });
    expect(row!.updated_at).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it('a visitor, and a suspended worker saving through a withdrawal (reading and forgetting stay allowed)', async () => {
    expect((await t.call('GET', '/api/withdraws/account')).status).toBe(401);
    expect((await t.call('DELETE', '/api/withdraws/account')).status).toBe(401);
    const user = await makeUser(t.deps.db, { status: 'suspended' });
    await fund(t.deps.db, user._id, 10_000);
    const token = await t.tokenFor(user);
    expect((await withdraw(token, { amount: 25, ...viaIban() })).body.error.code).toBe('suspended');
    expect(await storedRows(user._id)).toEqual([]);
    expect((await saved(token)).status).toBe(200);
    expect((await t.call('DELETE', '/api/withdraws/account', { token })).status).toBe(200);
  });
});

describe('under concurrent requests', () => {
  it('two withdrawals to two accounts at once leave one saved row, naming one of them', async () => {
    const { user, token } = await worker();
    const replies = await burst(6, (i) =>
      withdraw(token, { amount: 20, ...viaIban(`Holder ${i}`, i % 2 ? IBAN : OTHER_IBAN) }),
    );
    for (const r of replies) expect([201, 409, 503]).toContain(r.status);
    const rows = await storedRows(user._id);
    expect(rows).toHaveLength(1);
    // the saved row is the account of one of the withdrawals that went through
    const made = await withdrawalsOf(user._id);
    expect(made.length).toBe(replies.filter((r) => r.status === 201).length);
    expect(made.map((w) => `${w.full_name}|${w.account_number}`)).toContain(
      `${rows[0]!.full_name}|${rows[0]!.account_number}`,
    );
  });

  it('repeats and forgets racing each other: each repeat either uses the account or says none is saved', async () => {
    const { user, token } = await worker();
    expect((await withdraw(token, { amount: 20, ...viaIban() })).status).toBe(201);
    const replies = await burst(10, (i) =>
      i === 3
        ? t.call('DELETE', '/api/withdraws/account', { token })
        : withdraw(token, { amount: 20, useSavedAccount: true }),
    );
    for (const [i, r] of replies.entries()) {
      if (i === 3) expect(r.status).toBe(200);
      else if (r.status !== 201) expect(r.body.error.code).toMatch(/^(no_saved_account|busy|conflict)$/);
    }
    const made = await withdrawalsOf(user._id);
    expect(made.every((w) => w.account_number === IBAN)).toBe(true);
    // a repeat after the forget finds nothing; one before it saved the account again
    const left = await storedRows(user._id);
    expect(left.length).toBeLessThanOrEqual(1);
  });

  it('answers a flood of reads and forgets without a 5xx', async () => {
    const { token } = await worker();
    expect((await withdraw(token, { amount: 20, ...viaIban() })).status).toBe(201);
    const replies = await burst(40, (i) =>
      i % 4 === 0 ? t.call('DELETE', '/api/withdraws/account', { token }) : saved(token),
    );
    for (const r of replies) expect([200, 429]).toContain(r.status);
  });
});

describe('a deleted account', () => {
  it('keeps no saved payout account (the withdrawals keep their own copy)', async () => {
    const { user, token } = await worker(0);
    await fund(t.deps.db, user._id, 5000);
    expect((await withdraw(token, { amount: 50, ...viaIban() })).status).toBe(201);
    expect(await storedRows(user._id)).toHaveLength(1);
    const res = await t.call('DELETE', `/api/admin/users/${user._id}?forfeit=true`, { token: adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await storedRows(user._id)).toEqual([]);
    expect((await withdrawalsOf(user._id))[0]).toMatchObject({ account_number: IBAN });
  });

  it('is reported by the doctor when a saved account is left behind', async () => {
    const { user, token } = await worker();
    expect((await withdraw(token, { amount: 20, ...viaIban() })).status).toBe(201);
    await t.deps.db
      .updateTable('users')
      .set({ deleted_at: new Date().toISOString() })
      .where('_id', '=', user._id)
      .execute();
    expect(await checkDeletedUsers(t.deps.db)).toContain(
      `deleted user ${user._id} still has 1 row(s) in payout_accounts`,
    );
    // put right so the closing check stays clean
    await t.deps.db.deleteFrom('payout_accounts').where('user_id', '=', user._id).execute();
    await t.deps.db.updateTable('users').set({ deleted_at: null }).where('_id', '=', user._id).execute();
  });
});
