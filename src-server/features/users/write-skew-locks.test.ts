import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../testing/factories';
import { createAdminTestApp, createTestApp, type TestApp } from '../../testing/test-app';
import { openSetupIfNoAdmin } from '../setup/setup.service';
import { createOrPromoteAdmin } from './admin-account';

// The reads that decide "the last active admin" and the settings merge are write-skew
// guards on PostgreSQL, where each takes its advisory lock inside the transaction first. The
// locks do nothing on SQLite, so these tests check the wiring: which lock, inside a
// transaction, before the read it guards.
const events: string[] = [];
vi.mock('../../db/locks', async (original) => {
  const actual = await original<typeof import('../../db/locks')>();
  return {
    ...actual,
    lockForTransaction: vi.fn(async (tx: { isTransaction: boolean }, name: string) => {
      events.push(`lock ${name}${tx.isTransaction ? '' : ' OUTSIDE A TRANSACTION'}`);
    }),
  };
});
vi.mock('./admin-users.repository', async (original) => {
  const actual = await original<typeof import('./admin-users.repository')>();
  return {
    ...actual,
    countActiveAdmins: vi.fn(async (...args: Parameters<typeof actual.countActiveAdmins>) => {
      events.push('count admins');
      return actual.countActiveAdmins(...args);
    }),
  };
});
vi.mock('../settings/settings.repository', async (original) => {
  const actual = await original<typeof import('../settings/settings.repository')>();
  return {
    ...actual,
    readSections: vi.fn(async (...args: Parameters<typeof actual.readSections>) => {
      // the reads a transaction makes are the guarded ones; a request's guard (the admin
      // two-factor policy) reads the settings on its own before any of them
      if ((args[0] as { isTransaction?: boolean }).isTransaction) events.push('read settings');
      return actual.readSections(...args);
    }),
  };
});

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  ({ t, adminToken } = await createAdminTestApp());
});
afterAll(() => t.dispose());
beforeEach(() => {
  events.length = 0;
});

describe('the write-skew locks', () => {
  it('an admin stepping down takes the admins lock before counting the admins left', async () => {
    const other = await makeUser(t.deps.db, { role: 'admin' });
    const res = await t.call('PUT', `/api/admin/users/${other._id}`, {
      token: adminToken,
      body: { name: other.name, email: other.email, role: 'user' },
    });
    expect(res.status).toBe(200);
    expect(events).toEqual(['lock admins', 'count admins']);
  });

  it('deleting an admin takes the admins lock before counting the admins left', async () => {
    const other = await makeUser(t.deps.db, { role: 'admin' });
    expect((await t.call('DELETE', `/api/admin/users/${other._id}`, { token: adminToken })).status).toBe(200);
    expect(events).toEqual(['lock admins', 'count admins']);
  });

  it('create-admin takes the admins lock in its transaction', async () => {
    await createOrPromoteAdmin(t.deps, { email: 'cli@example.test', password: 'cli-pass-1', name: 'Cli' });
    const user = await makeUser(t.deps.db);
    await createOrPromoteAdmin(t.deps, { email: user.email, password: 'cli-pass-2', name: 'Again' });
    expect(events).toEqual(['lock admins', 'lock admins']);
  });

  it('a settings change takes the settings lock before reading the sections it merges', async () => {
    const res = await t.call('PUT', '/api/settings', {
      token: adminToken,
      body: { site: { name: 'Locked' } },
    });
    expect(res.status).toBe(200);
    expect(events.slice(0, 2)).toEqual(['lock settings', 'read settings']);
  });

  it('the first admin takes the admins lock before counting again in its transaction', async () => {
    const fresh = await createTestApp();
    try {
      const token = (await openSetupIfNoAdmin(fresh.deps))!;
      events.length = 0;
      const res = await fresh.call('POST', '/api/setup', {
        headers: { 'X-Setup-Token': token },
        body: {
          name: 'First',
          email: 'first@example.test',
          password: 'first-pass',
          confirmPassword: 'first-pass',
        },
      });
      expect(res.status).toBe(201);
      // the checks before the password is hashed only read; the transaction locks, then counts
      expect(events.filter((e) => e === 'lock admins')).toHaveLength(1);
      expect(events.slice(-2)).toEqual(['lock admins', 'count admins']);
    } finally {
      await fresh.dispose();
    }
  });
});
