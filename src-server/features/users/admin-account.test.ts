import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app';
import { openApp } from '../../bootstrap';
import { readConfig } from '../../config';
import { makeUser } from '../../testing/factories';
import { createOrPromoteAdmin } from './admin-account';
import { verifyPassword } from './password';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-admin-'));
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const open = (env: Record<string, string> = {}) =>
  openApp(readConfig({ DATA_DIR: dir, ...env }), { web: new Map() });
const ADMIN_ENV = { ADMIN_EMAIL: ' First.Admin@Example.TEST ', ADMIN_PASSWORD: 'admin-pass-1' };

describe('the first admin from ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  it('is created on a start over an empty database, and can sign in', async () => {
    const opened = await open(ADMIN_ENV);
    try {
      const users = await opened.deps.db.selectFrom('users').selectAll().execute();
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ email: 'first.admin@example.test', role: 'admin', status: 'active' });
      expect(users[0].password_hash).toMatch(/^\$argon2id\$/);
      const res = await createApp(opened.deps).request('/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'first.admin@example.test', password: 'admin-pass-1' }),
      });
      expect(res.status).toBe(200);
      expect((await res.json()).data.role).toBe('admin');
    } finally {
      await opened.close();
    }
  });

  it('does nothing when the database already has users', async () => {
    const first = await open();
    await makeUser(first.deps.db, { email: 'someone@example.test' });
    await first.close();
    const second = await open(ADMIN_ENV);
    try {
      const users = await second.deps.db.selectFrom('users').select(['email', 'role']).execute();
      expect(users).toEqual([{ email: 'someone@example.test', role: 'user' }]);
    } finally {
      await second.close();
    }
  });

  it('does not create a second admin or reset the password on a later start with other values', async () => {
    await (await open(ADMIN_ENV)).close();
    const again = await open({ ADMIN_EMAIL: 'other@example.test', ADMIN_PASSWORD: 'changed-pass' });
    try {
      const users = await again.deps.db.selectFrom('users').selectAll().execute();
      expect(users).toHaveLength(1);
      expect(await verifyPassword(users[0].password_hash, 'admin-pass-1')).toBe(true);
    } finally {
      await again.close();
    }
  });

  it.each([
    ['only ADMIN_EMAIL is set', { ADMIN_EMAIL: 'a@example.test' }],
    ['only ADMIN_PASSWORD is set', { ADMIN_PASSWORD: 'admin-pass-1' }],
  ])('does nothing when %s', async (_label, env) => {
    const opened = await open(env);
    try {
      expect(await opened.deps.db.selectFrom('users').select('_id').execute()).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('is created once when two nodes start together, and both start', async () => {
    await (await open()).close();
    const nodes = await Promise.all([open(ADMIN_ENV), open(ADMIN_ENV)]);
    try {
      const users = await nodes[0].deps.db.selectFrom('users').select(['email', 'role']).execute();
      expect(users).toEqual([{ email: 'first.admin@example.test', role: 'admin' }]);
    } finally {
      for (const node of nodes) await node.close();
    }
  });

  it('starts beside another connection holding the write lock for a moment, and makes the admin once it is let go', async () => {
    await (await open()).close();
    // a command (a sqlite3 shell, a script) holding the lock past the server's busy timeout
    const other = new Database(join(dir, 'taskreward.db'));
    other.exec('begin immediate');
    const letGo = setTimeout(() => other.exec('commit'), 300);
    try {
      const opened = await open(ADMIN_ENV);
      try {
        const users = await opened.deps.db.selectFrom('users').select(['email', 'role']).execute();
        expect(users).toEqual([{ email: 'first.admin@example.test', role: 'admin' }]);
      } finally {
        await opened.close();
      }
    } finally {
      clearTimeout(letGo);
      if (other.inTransaction) other.exec('rollback');
      other.close();
    }
  });

  it('refuses to start with a password shorter than 6 characters', async () => {
    await expect(open({ ADMIN_EMAIL: 'a@example.test', ADMIN_PASSWORD: '12345' })).rejects.toThrow(
      /6 characters/,
    );
  });
});

describe('createOrPromoteAdmin', () => {
  it('makes a banned account an active admin with the new password', async () => {
    const opened = await open();
    try {
      const user = await makeUser(opened.deps.db, {
        email: 'locked.out@example.test',
        status: 'banned',
        ban_reason: 'oops',
      });
      const result = await createOrPromoteAdmin(opened.deps, {
        email: 'LOCKED.OUT@example.test',
        password: 'brand-new-pass',
        name: 'Ignored',
      });
      expect(result).toBe('promoted');
      const row = await opened.deps.db
        .selectFrom('users')
        .selectAll()
        .where('_id', '=', user._id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ role: 'admin', status: 'active', ban_reason: null, name: user.name });
      expect(await verifyPassword(row.password_hash, 'brand-new-pass')).toBe(true);
      expect(await opened.deps.db.selectFrom('users').select('_id').execute()).toHaveLength(1);
    } finally {
      await opened.close();
    }
  });

  it.each([
    ['a malformed email', { email: 'not-an-email', password: 'secret123', name: 'A' }],
    ['a blank name', { email: 'a@example.test', password: 'secret123', name: '  ' }],
    ['a short password', { email: 'a@example.test', password: '123', name: 'A' }],
  ])('refuses %s and writes nothing', async (_label, input) => {
    const opened = await open();
    try {
      await expect(createOrPromoteAdmin(opened.deps, input)).rejects.toThrow();
      expect(await opened.deps.db.selectFrom('users').select('_id').execute()).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});

describe('create-admin over an existing account', () => {
  it('ends the sessions issued under the old password', async () => {
    const { sessionToken } = await import('../../testing/test-app');
    const opened = await open();
    try {
      const user = await makeUser(opened.deps.db, { email: 'locked.out@example.test' });
      const old = await sessionToken(opened.deps, user, true);
      const app = createApp(opened.deps);
      const me = (token: string) =>
        app.request('/api/users/me', { headers: { Authorization: `Bearer ${token}` } });
      expect((await me(old)).status).toBe(200);
      await createOrPromoteAdmin(opened.deps, { email: user.email, password: 'back-in-123', name: 'Back' });
      expect((await me(old)).status).toBe(401);
    } finally {
      await opened.close();
    }
  });
});
