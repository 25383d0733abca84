import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedProofUrl } from '../features/files/file-urls';
import { makeUser } from '../testing/factories';
import { listen } from '../testing/money-factories';
import { type ApiBody, createTestApp, type TestApp } from '../testing/test-app';

/**
 * Who may call what, for EVERY route of the app (a visitor, a user, an admin):
 * the table below must list exactly the routes of the app's route table, so a new route
 * fails here until its access is decided. Each route is called by a visitor, a user, a
 * suspended user, a banned user and an admin; path parameters are made-up ids, so an
 * allowed call gets past the access check and stops at a 404 or 422 with nothing changed.
 */

/** `editor`: an active admin, anyone else hears they may not edit the task (task_not_owner). */
type Access = 'public' | 'user' | 'active' | 'admin' | 'editor';
type Who = 'visitor' | 'user' | 'suspended' | 'banned' | 'admin';

const ROUTES: Record<string, Access> = {
  'POST /api/auth/register': 'public',
  'POST /api/auth/login': 'public',
  // the mailed links: a stranger asks for one and uses it
  'GET /api/auth/mail-status': 'public',
  'POST /api/auth/forgot-password': 'public',
  'POST /api/auth/reset-password': 'public',
  'POST /api/auth/verify-email': 'public',
  'POST /api/users/me/verify-email': 'user',
  'POST /api/auth/send-notification': 'admin',
  'GET /api/users/me': 'user',
  'PUT /api/users/me': 'user',
  'GET /api/users/me/completed-tasks': 'user',
  'GET /api/users/me/statement': 'user',
  'GET /api/users/me/statement.csv': 'user',
  // the account's own sessions and second factor (a suspended user may still secure the account)
  'GET /api/users/me/sessions': 'user',
  'POST /api/users/me/sessions/revoke-others': 'user',
  'DELETE /api/users/me/sessions/:id': 'user',
  'GET /api/users/me/two-factor': 'user',
  'POST /api/users/me/two-factor/setup': 'user',
  'POST /api/users/me/two-factor/enable': 'user',
  'POST /api/users/me/two-factor/disable': 'user',
  'GET /api/admin/users/:id/security': 'admin',
  'DELETE /api/admin/users/:id/sessions/:sessionId': 'admin',
  'DELETE /api/admin/users/:id/sessions': 'admin',
  'DELETE /api/admin/users/:id/two-factor': 'admin',
  'GET /api/settings': 'public',
  'PUT /api/settings': 'admin',
  'PUT /api/settings/logo': 'admin',
  'PUT /api/settings/favicon': 'admin',
  // the legal pages are public; their texts are the admins' to change
  'GET /api/settings/legal/:document': 'public',
  'PUT /api/settings/legal/:document': 'admin',
  'PUT /api/submissions/:id/review': 'admin',
  'POST /api/submissions/:id/appeal': 'active',
  'POST /api/submissions': 'active',
  'GET /api/submissions/user': 'user',
  'GET /api/submissions': 'admin',
  'GET /api/tasks/user': 'user',
  'GET /api/tasks': 'public',
  'POST /api/tasks': 'admin',
  'GET /api/tasks/:id': 'public',
  // admins only: a task's creator who is no longer an active admin keeps no power over it
  'PUT /api/tasks/:id': 'editor',
  'DELETE /api/tasks/:id': 'admin',
  'PUT /api/tasks/:id/feature': 'admin',
  'POST /api/tasks/:id/start': 'active',
  'POST /api/tasks/:id/restart': 'active',
  'GET /api/files/proofs/:name': 'public',
  'GET /api/files/images/:name': 'public',
  'POST /api/withdraws': 'active',
  'GET /api/withdraws': 'user',
  // the saved payout account: its owner's, suspended or not (only a withdrawal writes it)
  'GET /api/withdraws/account': 'user',
  'DELETE /api/withdraws/account': 'user',
  // the inbox is the reader's own (a suspended user still reads it): features/notifications/inbox.test.ts
  'GET /api/notifications': 'user',
  'GET /api/notifications/unread': 'user',
  'PUT /api/notifications/read-all': 'user',
  'PUT /api/notifications/:id/read': 'user',
  'GET /api/admin/withdraws': 'admin',
  'PUT /api/admin/withdraws/:id/approve': 'admin',
  'PUT /api/admin/withdraws/:id/reject': 'admin',
  'GET /api/admin/stats': 'admin',
  'GET /api/admin/audit': 'admin',
  'GET /api/admin/submissions/export.csv': 'admin',
  'GET /api/admin/withdraws/export.csv': 'admin',
  'GET /api/admin/users/export.csv': 'admin',
  'GET /api/admin/withdraws/payouts.csv': 'admin',
  'GET /api/admin/users/:id/notes': 'admin',
  'POST /api/admin/users/:id/notes': 'admin',
  'PUT /api/admin/submissions/review': 'admin',
  'PUT /api/admin/withdraws/review': 'admin',
  'GET /api/admin/stats/today': 'admin',
  'GET /api/admin/system': 'admin',
  'GET /api/admin/users': 'admin',
  'GET /api/admin/users/:id': 'admin',
  'PUT /api/admin/users/:id': 'admin',
  'DELETE /api/admin/users/:id': 'admin',
  'GET /api/admin/users/:id/submissions': 'admin',
  'GET /api/admin/users/:id/withdrawals': 'admin',
  'GET /api/admin/submissions/pending-ids': 'admin',
  'PUT /api/admin/submissions/:id/appeal': 'admin',
  'GET /api/admin/submissions/recent': 'admin',
  'GET /api/admin/submissions': 'admin',
  'GET /api/admin/submissions/:id': 'admin',
  'GET /api/admin/users/:id/linked': 'admin',
  'PUT /api/admin/flags/:id/dismiss': 'admin',
  'GET /api/admin/notifications/status': 'admin',
  // the first-run setup link's token is its access, whoever calls (features/setup/setup.test.ts);
  // here an admin exists, so every caller gets 409 setup_done
  'GET /api/setup': 'public',
  'POST /api/setup': 'public',
};

const WHO: Who[] = ['visitor', 'user', 'suspended', 'banned', 'admin'];
const FAKE_ID = '0123456789abcdef01234567';
const FAKE_FILE = `${'0'.repeat(32)}.png`;

/** The refusal each caller gets from a route of that access, or null when they get past it. */
function refusal(access: Access, who: Who): [number, string] | null {
  if (access === 'public' || who === 'admin') return null;
  if (who === 'visitor') return [401, 'unauthorized'];
  if (who === 'banned') return [403, 'banned'];
  if (access === 'admin') return [403, 'forbidden'];
  if (access === 'editor') return [403, 'task_not_owner'];
  if (access === 'active' && who === 'suspended') return [403, 'suspended'];
  return null;
}

let t: TestApp;
const tokens: Partial<Record<Who, string>> = {};
beforeAll(async () => {
  t = await createTestApp({ throttle: { perPair: 10_000, perAddress: 100_000, windowSeconds: 60 } });
  tokens.user = await t.tokenFor(await makeUser(t.deps.db));
  tokens.suspended = await t.tokenFor(await makeUser(t.deps.db, { status: 'suspended' }));
  tokens.banned = await t.tokenFor(
    await makeUser(t.deps.db, { status: 'banned', ban_reason: 'kural ihlali' }),
  );
  tokens.admin = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());

function concrete(path: string): string {
  if (path === '/api/files/proofs/:name') return signedProofUrl(t.deps.secret, FAKE_FILE, new Date());
  return path.replace(':name', FAKE_FILE).replace(/:[a-z]+/gi, FAKE_ID);
}

function call(method: string, path: string, who: Who) {
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return t.call(method, path, { token: tokens[who], ...(hasBody ? { body: {} } : {}) });
}

function judge(access: Access, who: Who, res: { status: number; body: ApiBody }): string | null {
  const expected = refusal(access, who);
  if (expected) {
    const [status, code] = expected;
    if (res.status === status && res.body?.error?.code === code) return null;
    return `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`;
  }
  // a site without SMTP answers a mail-sending route with its 503 after the access check passed
  const noMail = res.status === 503 && res.body?.error?.code === 'email_not_configured';
  if ((res.status >= 500 && !noMail) || res.status === 401 || res.status === 403) {
    return `expected to pass the access check, got ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`;
  }
  return null;
}

describe('the access table', () => {
  it("lists exactly the app's routes", () => {
    const actual = new Set(
      t.app.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/'))
        .map((r) => `${r.method} ${r.path}`),
    );
    expect([...actual].sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it.each(Object.entries(ROUTES))('%s is %s', async (route, access) => {
    const [method, path] = route.split(' ');
    const failures: string[] = [];
    for (const who of WHO) {
      const res = await call(method, concrete(path), who);
      const problem = judge(access, who, res);
      if (problem) failures.push(`${who}: ${problem}`);
      if (who === 'banned' && refusal(access, who)) {
        expect(res.body.error.banReason).toBe('kural ihlali');
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('unknown paths under /api/admin', () => {
  it.each([
    ['GET', '/api/admin'],
    ['GET', '/api/admin/'],
    ['GET', '/api/admin/nope'],
    ['POST', '/api/admin/users'],
    ['PATCH', `/api/admin/users/${FAKE_ID}`],
    ['DELETE', '/api/admin/stats'],
    ['GET', '/api/admin/users/x/y/z'],
  ])('%s %s tells only an admin that it does not exist', async (method, path) => {
    const failures: string[] = [];
    for (const who of WHO) {
      const res = await call(method, path, who);
      const [status, code] = refusal('admin', who) ?? [404, 'route_not_found'];
      if (res.status !== status || res.body?.error?.code !== code) failures.push(`${who}: ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});

// ---- other spellings of the admin paths ----

const ADMIN_ROUTES = Object.entries(ROUTES).filter(([, access]) => access === 'admin');

/** Spellings Hono routes exactly like the written path: same guard, same answer. */
const SAME_ROUTE: [string, (path: string) => string][] = [
  ['a trailing slash', (p) => `${p}/`],
  [
    'an encoded first letter of each segment',
    (p) => p.replace(/\/([a-z])/g, (_m, ch: string) => `/%${ch.charCodeAt(0).toString(16)}`),
  ],
  [
    'an encoded "admin" or "auth"',
    (p) => p.replace('/admin', '/%61%64%6d%69%6e').replace('/auth', '/%61uth'),
  ],
  ['a dot segment', (p) => p.replace('/api/', '/api/x/../')],
  ['an encoded dot segment', (p) => p.replace('/api/', '/api/x/%2e%2e/')],
  ['a query string', (p) => `${p}?role=admin&page=1`],
];

/** Spellings that name no route: they must reach no handler (a 404, or the web app's shell). */
const NO_ROUTE: [string, (path: string) => string][] = [
  ['doubled slashes', (p) => p.replaceAll('/', '//')],
  ['a doubled slash after /api', (p) => p.replace('/api/', '/api//')],
  ['upper case', (p) => p.replace('/api/', '/API/').replace('admin', 'ADMIN')],
  ['an encoded slash', (p) => p.replace('/api/', '/api%2F')],
  ['a doubled trailing slash', (p) => `${p}//`],
];

describe.each(ADMIN_ROUTES)('%s spelled otherwise', (route) => {
  const [method, path] = route.split(' ');

  it.each(SAME_ROUTE)('with %s still takes an admin', async (_label, spell) => {
    const failures: string[] = [];
    for (const who of WHO) {
      const res = await call(method, spell(concrete(path)), who);
      const problem = judge('admin', who, res);
      if (problem) failures.push(`${who}: ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it.each(NO_ROUTE)('with %s reaches no handler and never fails', async (_label, spell) => {
    const failures: string[] = [];
    for (const who of WHO) {
      const res = await call(method, spell(concrete(path)), who);
      const json = typeof res.body === 'object' && res.body !== null;
      const harmless =
        res.status < 500 &&
        (json
          ? res.body.success === false && [401, 403, 404].includes(res.status)
          : method === 'GET' && res.status === 200 && String(res.body).includes('<html'));
      if (!harmless) failures.push(`${who}: ${res.status} ${String(JSON.stringify(res.body)).slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('over a real HTTP connection', () => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await listen(t.app);
  });
  afterAll(() => server.close());

  /** The request line exactly as written: no client-side URL clean-up. */
  function raw(path: string, token?: string): Promise<{ status: number; body: string }> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'GET',
          headers: token ? { Authorization: `Bearer ${token}` } : {},
        },
        (res) => {
          let body = '';
          res.on('data', (c) => {
            body += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it.each([
    '/api/admin/users',
    '/api/admin/users/',
    '/api/%61dmin/users',
    '/api/admin/%75sers',
    '/api/x/../admin/users',
    '/api/admin/./users',
    '/api/x/%2e%2e/admin/users',
    '/api/admin/stats/today',
  ])('GET %s refuses a visitor and a user, and serves an admin', async (path) => {
    expect((await raw(path)).status).toBe(401);
    const asUser = await raw(path, tokens.user);
    expect([asUser.status, JSON.parse(asUser.body).error.code]).toEqual([403, 'forbidden']);
    const asAdmin = await raw(path, tokens.admin);
    expect([asAdmin.status, JSON.parse(asAdmin.body).success]).toEqual([200, true]);
  });

  it.each([
    '//api//admin/users',
    '/api//admin/users',
    '//api/admin/users',
    '/api/admin%2Fusers',
    '/API/admin/users',
  ])('GET %s gives a user no admin data and no 5xx', async (path) => {
    for (const token of [undefined, tokens.user]) {
      const res = await raw(path, token);
      expect(res.status).toBeLessThan(500);
      expect(res.body).not.toMatch(/"success":true/);
    }
  });
});
