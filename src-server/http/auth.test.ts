import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../testing/factories';
import { createTestApp, type TestApp } from '../testing/test-app';
import { optionalUser, requireActive, requireAdmin, requireUser } from './auth';
import type { AppEnv } from './env';
import { onError } from './on-error';

type Who =
  | 'visitor'
  | 'garbage'
  | 'user'
  | 'suspended'
  | 'banned'
  | 'admin'
  | 'suspendedAdmin'
  | 'bannedAdmin'
  | 'deleted';

let t: TestApp;
let app: Hono<AppEnv>;
const tokens = {} as Record<Who, string | undefined>;

beforeAll(async () => {
  t = await createTestApp();
  app = new Hono<AppEnv>();
  app.onError(onError);
  app.use('*', async (c, next) => {
    c.set('deps', t.deps);
    await next();
  });
  const who = (c: { var: { user?: { _id: string } } }) => c.var.user?._id ?? 'visitor';
  app.get('/user', requireUser, (c) => c.text(who(c)));
  app.get('/active', requireUser, requireActive, (c) => c.text(who(c)));
  app.get('/admin', requireAdmin, (c) => c.text(who(c)));
  app.get('/optional', optionalUser, (c) => c.text(who(c)));

  const make = async (fields: Parameters<typeof makeUser>[1]) =>
    t.tokenFor(await makeUser(t.deps.db, fields));
  tokens.visitor = undefined;
  tokens.garbage = 'garbage';
  tokens.user = await make({});
  tokens.suspended = await make({ status: 'suspended' });
  tokens.banned = await make({ status: 'banned', ban_reason: 'spam' });
  tokens.admin = await make({ role: 'admin' });
  tokens.suspendedAdmin = await make({ role: 'admin', status: 'suspended' });
  tokens.bannedAdmin = await make({ role: 'admin', status: 'banned', ban_reason: 'spam' });
  const gone = await makeUser(t.deps.db);
  tokens.deleted = await t.tokenFor(gone);
  await t.deps.db.updateTable('users').set({ deleted_at: 'now' }).where('_id', '=', gone._id).execute();
});
afterAll(async () => {
  await t.dispose();
});

// [who, /user, /active, /admin, /optional]: 'ok' is a 200 as that user, 'visitor' a 200 as nobody, else the error code
const TABLE: [Who, string, string, string, string][] = [
  ['visitor', 'unauthorized', 'unauthorized', 'unauthorized', 'visitor'],
  ['garbage', 'invalid_token', 'invalid_token', 'invalid_token', 'invalid_token'],
  ['deleted', 'invalid_token', 'invalid_token', 'invalid_token', 'invalid_token'],
  ['user', 'ok', 'ok', 'forbidden', 'ok'],
  ['suspended', 'ok', 'suspended', 'forbidden', 'ok'],
  ['banned', 'banned', 'banned', 'banned', 'visitor'],
  ['admin', 'ok', 'ok', 'ok', 'ok'],
  ['suspendedAdmin', 'ok', 'suspended', 'suspended', 'ok'],
  ['bannedAdmin', 'banned', 'banned', 'banned', 'visitor'],
];

const STATUS: Record<string, number> = {
  unauthorized: 401,
  invalid_token: 401,
  forbidden: 403,
  suspended: 403,
  banned: 403,
};

describe('the auth middlewares', () => {
  it.each(
    TABLE.flatMap(([who, ...outcomes]) =>
      (['/user', '/active', '/admin', '/optional'] as const).map(
        (path, i) => [who, path, outcomes[i]] as const,
      ),
    ),
  )('give %s on %s: %s', async (who, path, outcome) => {
    const token = tokens[who];
    const res = await app.request(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (outcome === 'ok') {
      expect(res.status).toBe(200);
      expect(await res.text()).not.toBe('visitor');
    } else if (outcome === 'visitor') {
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('visitor');
    } else {
      expect(res.status).toBe(STATUS[outcome]);
      const body = await res.json();
      expect(body).toMatchObject({ success: false, error: { code: outcome, message: expect.any(String) } });
      if (outcome === 'banned') expect(body.error.banReason).toBe('spam');
    }
  });
});
