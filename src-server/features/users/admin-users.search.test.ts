import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';

// The admin's user search folds Turkish like the task search: name or email,
// İ/i and I/ı, with or without accents; and every way a name is written keeps it findable.
let t: TestApp;
let adminToken: string;
const people: Record<string, UserRow> = {};

const find = async (q: string) => {
  const res = await t.call('GET', `/api/admin/users?limit=50&q=${encodeURIComponent(q)}`, {
    token: adminToken,
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return (res.body.data.items as { name: string }[]).map((u) => u.name).sort();
};

beforeAll(async () => {
  t = await createTestApp();
  const admin = await makeUser(t.deps.db, { name: 'Panel Admin', role: 'admin', email: 'panel@admin.test' });
  adminToken = await t.tokenFor(admin);
  for (const [key, name, email] of [
    ['isik', 'IŞIK Yılmaz', 'isik@example.test'],
    ['ismail', 'ismail ışıklı', 'ismail@example.test'],
    ['sule', 'Şule Çağlar', 'sule@example.test'],
    ['inci', 'İnci Öztürk', 'inci@example.test'],
    ['insta', 'Deniz Kaya', 'instagram.fan@example.test'],
  ]) {
    people[key] = await makeUser(t.deps.db, { name, email });
  }
});
afterAll(() => t.dispose());

describe('GET /api/admin/users?q= folds Turkish', () => {
  it.each([
    ['"isik" finds "IŞIK" and "ışıklı"', 'isik', ['IŞIK Yılmaz', 'ismail ışıklı']],
    ['"IŞIK" finds "ışıklı"', 'IŞIK', ['IŞIK Yılmaz', 'ismail ışıklı']],
    ['"ŞULE ÇAĞLAR" finds "Şule Çağlar"', 'ŞULE ÇAĞLAR', ['Şule Çağlar']],
    ['"sule caglar" finds "Şule Çağlar"', 'sule caglar', ['Şule Çağlar']],
    ['"inci ozturk" finds "İnci Öztürk"', 'inci ozturk', ['İnci Öztürk']],
    ['"İNCİ" finds "İnci Öztürk"', 'İNCİ', ['İnci Öztürk']],
    ['"İnstagram" finds the email "instagram.fan@..."', 'İnstagram', ['Deniz Kaya']],
    ['"INSTAGRAM.FAN" finds it too', 'INSTAGRAM.FAN', ['Deniz Kaya']],
  ])('%s', async (_name, q, expected) => {
    expect(await find(q)).toEqual(expected);
  });

  it('finds a name given at registration, folded', async () => {
    const res = await t.call('POST', '/api/auth/register', {
      body: { name: 'Gülşen Ağaoğlu', email: 'gulsen@example.test', password: TEST_PASSWORD },
    });
    expect(res.status).toBe(201);
    expect(await find('gulsen agaoglu')).toEqual(['Gülşen Ağaoğlu']);
  });

  it('finds a name changed by its owner on the profile, and no longer the old one', async () => {
    const token = await t.tokenFor(people.sule);
    const res = await t.call('PUT', '/api/users/me', { token, body: { name: 'Şule IŞIKÇI' } });
    expect(res.status).toBe(200);
    expect(await find('sule caglar')).toEqual([]);
    expect(await find('isikci')).toEqual(['Şule IŞIKÇI']);
  });

  it('finds a name changed by an admin, and no longer the old one', async () => {
    const res = await t.call('PUT', `/api/admin/users/${people.inci._id}`, {
      token: adminToken,
      body: { name: 'İpek Ünal', email: people.inci.email },
    });
    expect(res.status).toBe(200);
    expect(await find('ozturk')).toEqual([]);
    expect(await find('IPEK UNAL')).toEqual(['İpek Ünal']);
  });

  it('keeps a deleted account out of the search, whatever its old name', async () => {
    const gone = await makeUser(t.deps.db, { name: 'Çağrı Silinen' });
    expect(await find('cagri')).toEqual(['Çağrı Silinen']);
    expect((await t.call('DELETE', `/api/admin/users/${gone._id}`, { token: adminToken })).status).toBe(200);
    expect(await find('cagri')).toEqual([]);
    expect(await find('deleted user')).toEqual([]);
  });
});
