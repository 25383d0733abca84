import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { runMoneyChecks } from '../money/doctor';

// The admin's withdrawal search folds Turkish: the account holder's name as the
// user typed it in the withdraw form, and the user's name.
let t: TestApp;
let adminToken: string;
const ids: Record<string, string> = {};

const find = async (q: string) => {
  const res = await t.call('GET', `/api/admin/withdraws?q=${encodeURIComponent(q)}`, { token: adminToken });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return (res.body.data.items as { _id: string }[])
    .map((w) => Object.keys(ids).find((k) => ids[k] === w._id))
    .sort();
};

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  const requests: [string, string, string][] = [
    ['cagri', 'Çağrı Işıkgöz', 'Kemal Demir'],
    ['irmak', 'Irmak Şahin', 'İrem Şahin'],
    ['oyku', 'Öykü Ünlü', 'ÖYKÜ ÜNLÜ'],
  ];
  for (const [key, userName, holder] of requests) {
    const user = await makeUser(t.deps.db, { name: userName });
    await fund(t.deps.db, user._id, 10_000);
    const res = await t.call('POST', '/api/withdraws', {
      token: await t.tokenFor(user),
      body: {
        amount: 25,
        paymentMethod: 'papara',
        accountDetails: { fullName: holder, accountNumber: '1234567890' },
      },
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    ids[key] = res.body.data._id;
  }
});
afterAll(async () => {
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  await t.dispose();
});

describe('GET /api/admin/withdraws?q= folds Turkish', () => {
  it.each([
    ['the holder "kemal" (plain)', 'kemal', ['cagri']],
    ['the user "cagri isikgoz" without accents', 'cagri isikgoz', ['cagri']],
    ['the user "ÇAĞRI IŞIKGÖZ" in capitals', 'ÇAĞRI IŞIKGÖZ', ['cagri']],
    ['the holder "İrem" as "IREM"', 'IREM', ['irmak']],
    ['the user "Irmak" as "ırmak" (dotless)', 'ırmak', ['irmak']],
    ['"sahin" in both the user and the holder of one request', 'sahin', ['irmak']],
    ['the holder "öykü ünlü" as typed in capitals, found in lower case', 'öykü ünlü', ['oyku']],
    ['"oyku unlu" without accents', 'oyku unlu', ['oyku']],
  ])('finds %s', async (_name, q, expected) => {
    expect(await find(q)).toEqual(expected);
  });

  it('still finds an account number, spaces and letter case aside', async () => {
    expect(await find('1234 5678')).toEqual(['cagri', 'irmak', 'oyku']);
  });
});
