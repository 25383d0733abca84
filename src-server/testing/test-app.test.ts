import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../features/users/password';
import { makeUser, TEST_PASSWORD } from './factories';
import { createTestApp } from './test-app';

describe('createTestApp', () => {
  it('gives each app its own migrated database in a temp folder, removed by dispose', async () => {
    const a = await createTestApp();
    const b = await createTestApp();
    try {
      expect(a.dataDir).not.toBe(b.dataDir);
      await makeUser(a.deps.db);
      expect(await b.deps.db.selectFrom('users').select('_id').execute()).toEqual([]);
    } finally {
      await a.dispose();
      await b.dispose();
    }
    expect(existsSync(a.dataDir)).toBe(false);
    expect(existsSync(b.dataDir)).toBe(false);
  });

  it('signs tokens the app accepts', async () => {
    const t = await createTestApp();
    try {
      const user = await makeUser(t.deps.db);
      const res = await t.call('GET', '/api/users/me', { token: await t.tokenFor(user) });
      expect(res.status).toBe(200);
      expect(res.body.data._id).toBe(user._id);
    } finally {
      await t.dispose();
    }
  });
});

describe('makeUser', () => {
  it('makes an active user with the shared test password, and takes overrides', async () => {
    const t = await createTestApp();
    try {
      const user = await makeUser(t.deps.db, { role: 'admin', balance: 250 });
      expect(user).toMatchObject({ role: 'admin', status: 'active', balance: 250 });
      expect(await verifyPassword(user.password_hash, TEST_PASSWORD)).toBe(true);
      const other = await makeUser(t.deps.db);
      expect(other._id).not.toBe(user._id);
      expect(other.email).not.toBe(user.email);
    } finally {
      await t.dispose();
    }
  });
});
