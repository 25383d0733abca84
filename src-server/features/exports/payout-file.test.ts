// The bulk payout file: one Turkish day's approved withdrawals of one method, in the columns a
// bank's bulk EFT upload or Papara's mass payment takes, in the admin exports' Excel dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_COLUMNS } from '../../contract/payouts';
import { makeUser } from '../../testing/factories';
import { burst, fund, makeIban, makeWithdrawal } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let adminToken: string;
const iban = makeIban();
beforeAll(async () => {
  ({ t, adminToken } = await createAdminTestApp({
    throttle: { perPair: 10_000, perAddress: 100_000, windowSeconds: 60 },
  }));
  const user = await makeUser(t.deps.db, { name: 'Alıcı' });
  await fund(t.deps.db, user._id, 1_000_000);
  const approved = (reviewedAt: string, extra: Record<string, unknown>) =>
    makeWithdrawal(t.deps.db, user._id, { status: 'approved', reviewed_at: reviewedAt, ...extra });
  // 2026-12-01 in Turkey is 2026-11-30T21:00Z to 2026-12-01T21:00Z
  await approved('2026-11-30T21:00:00.000Z', {
    _id: 'aaaaaaaaaaaaaaaaaaaa0001',
    amount: 123_456,
    payment_method: 'iban',
    full_name: 'Şule Güneş',
    account_number: iban.replace(/(.{4})/g, '$1 ').toLowerCase(),
  });
  await approved('2026-12-01T10:00:00.000Z', {
    _id: 'aaaaaaaaaaaaaaaaaaaa0002',
    amount: 5_000,
    payment_method: 'papara',
    full_name: '=HYPERLINK("x")',
    account_number: '123 456-7890',
  });
  await approved('2026-12-01T12:00:00.000Z', {
    _id: 'aaaaaaaaaaaaaaaaaaaa0003',
    amount: 2_050,
    payment_method: 'iban',
    full_name: 'Ali; Veli',
    account_number: iban,
  });
  // outside the day, or not approved: left out
  await approved('2026-12-01T21:00:00.000Z', { amount: 999, payment_method: 'iban', account_number: iban });
  await approved('2026-11-30T20:59:59.999Z', { amount: 998, payment_method: 'iban', account_number: iban });
  await makeWithdrawal(t.deps.db, user._id, { amount: 997, payment_method: 'iban', account_number: iban });
});
afterAll(() => t.dispose());

/** The body as sent: text() would drop the byte-order mark. */
const bytes = async (res: Response) =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
const get = async (query: string, token = adminToken): Promise<Response> =>
  t.app.request(`/api/admin/withdraws/payouts.csv?${query}`, {
    headers: { Authorization: `Bearer ${token}` },
  });

describe('the payout file of a day', () => {
  it('lists the IBAN payouts in the bulk EFT columns', async () => {
    const res = await get('day=2026-12-01&file=eft');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="taskreward-payouts-eft-2026-12-01.csv"',
    );
    const text = await bytes(res);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      PAYOUT_COLUMNS.eft.join(';'),
      `1;Şule Güneş;${iban};1234,56;TRY;TaskReward odemesi;aaaaaaaaaaaaaaaaaaaa0001`,
      `2;"Ali; Veli";${iban};20,50;TRY;TaskReward odemesi;aaaaaaaaaaaaaaaaaaaa0003`,
      '',
    ]);
  });

  it('lists the Papara payouts in the mass payment columns, a formula neutralised', async () => {
    const text = (await bytes(await get('day=2026-12-01&file=papara'))).slice(1);
    expect(text.split('\r\n')).toEqual([
      PAYOUT_COLUMNS.papara.join(';'),
      `1;1234567890;"'=HYPERLINK(""x"")";50,00;TaskReward odemesi;aaaaaaaaaaaaaaaaaaaa0002`,
      '',
    ]);
  });

  it('is only the header on a day without payouts', async () => {
    const text = await bytes(await get('day=2026-12-03&file=eft'));
    expect(text).toBe(`\uFEFF${PAYOUT_COLUMNS.eft.join(';')}\r\n`);
  });

  it.each([
    ['no day', 'file=eft'],
    ['no file', 'day=2026-12-01'],
    ['a day that is not one', 'day=2026-02-30&file=eft'],
    ['another file kind', 'day=2026-12-01&file=swift'],
    ['a day with a time', 'day=2026-12-01T00:00&file=eft'],
  ])('refuses %s with a 422', async (_label, query) => {
    const res = await get(query);
    expect(res.status).toBe(422);
    expect((await res.json()).error.code).toBe('validation_error');
  });

  it.each([
    ['a user', { role: 'user' as const }, 'forbidden'],
    ['a demoted admin', { role: 'user' as const }, 'forbidden'],
    ['a suspended admin', { status: 'suspended' as const }, 'suspended'],
  ])('is refused to %s, as the account is now', async (_label, after, code) => {
    const caller = await makeUser(t.deps.db, { role: 'admin' });
    const token = await t.tokenFor(caller);
    await t.deps.db.updateTable('users').set(after).where('_id', '=', caller._id).execute();
    const res = await get('day=2026-12-01&file=eft', token);
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.error.code).toBe(code);
    expect(JSON.stringify(body)).not.toContain(iban);
  });

  it('answers 30 requests at once with the same file (a flood reads, it writes nothing)', async () => {
    const replies = await burst(30, () =>
      get('day=2026-12-01&file=eft').then(async (r) => [r.status, await r.text()]),
    );
    const first = replies[0];
    expect(first[0]).toBe(200);
    for (const r of replies) expect(r).toEqual(first);
  });
});
