import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../testing/factories';
import { fund, makePendingSubmission, makeTask, makeWithdrawal } from '../testing/money-factories';
import { type ApiBody, createTestApp, type TestApp } from '../testing/test-app';

/**
 * No request body may cause a 5xx (API contract). The auth endpoints get
 * exact expectations; every other body-taking API route is found from the app's own route
 * table, so a route added later is swept too.
 */

let t: TestApp;
let adminToken: string;
let userToken: string;
beforeAll(async () => {
  t = await createTestApp({ throttle: { perPair: 1000, perAddress: 10_000, windowSeconds: 60 } });
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  userToken = await t.tokenFor(await makeUser(t.deps.db, { balance: 100_000 }));
});
afterAll(async () => {
  await t.dispose();
});

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const MB = 1024 * 1024;

interface Hostile {
  label: string;
  raw: BodyInit | undefined;
  headers: Record<string, string>;
}

const json = (label: string, value: unknown): Hostile => ({
  label,
  raw: typeof value === 'string' ? value : JSON.stringify(value),
  headers: JSON_HEADERS,
});

function expectContractError(status: number, body: ApiBody) {
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
  expect(body).toMatchObject({
    success: false,
    error: { code: expect.any(String), message: expect.any(String) },
  });
  expect(body.error.code).toMatch(/^[a-z_]+$/);
  expect(body.error.message.length).toBeGreaterThan(0);
}

const send = (method: string, path: string, h: Hostile, token?: string) =>
  t.call(method, path, {
    raw: h.raw,
    headers: { ...h.headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });

const deepNest = (depth: number) => `{"email":${'['.repeat(depth)}${']'.repeat(depth)}}`;

// [case, expected status, expected code]
const AUTH_CASES: [Hostile, number, string][] = [
  [json('malformed JSON', '{"email": "a@example.test", '), 400, 'malformed_json'],
  [json('a truncated string', '{"email": "a@exa'), 400, 'malformed_json'],
  [json('a JSON array', []), 400, 'malformed_json'],
  [
    json('a JSON array of objects', [{ email: 'a@example.test', password: 'secret123' }]),
    400,
    'malformed_json',
  ],
  [json('null', 'null'), 400, 'malformed_json'],
  [json('a bare number', '42'), 400, 'malformed_json'],
  [json('a bare string', '"secret123"'), 400, 'malformed_json'],
  [json('true', 'true'), 400, 'malformed_json'],
  [
    json('numbers where strings are expected', { name: 1, email: 2, password: 123456 }),
    422,
    'validation_error',
  ],
  [
    json('1e309 where a string is expected', '{"name":1e309,"email":1e309,"password":1e309}'),
    422,
    'validation_error',
  ],
  [
    json('objects where strings are expected', { name: {}, email: { $gt: '' }, password: { length: 10 } }),
    422,
    'validation_error',
  ],
  [
    json('arrays where strings are expected', { name: ['a'], email: ['a@example.test'], password: ['x'] }),
    422,
    'validation_error',
  ],
  [json('nulls everywhere', { name: null, email: null, password: null }), 422, 'validation_error'],
  [json('booleans everywhere', { name: true, email: false, password: true }), 422, 'validation_error'],
  [json('an empty object (missing fields)', {}), 422, 'validation_error'],
  [json('only unknown fields', { foo: 1, bar: { baz: [1, 2] }, role: 'admin' }), 422, 'validation_error'],
  [
    json('an email of 300 characters', {
      name: 'a',
      email: `${'a'.repeat(290)}@ex.test`,
      password: 'secret123',
    }),
    422,
    'validation_error',
  ],
  [
    json('a 1 MB string field', { name: 'a', email: 'a@example.test', password: 'p'.repeat(MB) }),
    413,
    'payload_too_large',
  ],
  [json('a 300 KB body', { pad: 'x'.repeat(300 * 1024) }), 413, 'payload_too_large'],
  [
    {
      label: 'a 300 KB body that declares its length',
      raw: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }),
      headers: { ...JSON_HEADERS, 'Content-Length': String(300 * 1024 + 10) },
    },
    413,
    'payload_too_large',
  ],
  [json('deeply nested arrays', deepNest(50_000)), 422, 'validation_error'],
  [json('an empty body', ''), 422, 'validation_error'],
  [json('a body of whitespace', '  \n\t '), 422, 'validation_error'],
  [{ label: 'an empty body without Content-Type', raw: undefined, headers: {} }, 422, 'validation_error'],
  [
    {
      label: 'bytes that are not UTF-8',
      raw: new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0xc3]),
      headers: JSON_HEADERS,
    },
    400,
    'malformed_json',
  ],
  [
    {
      label: 'a valid body sent as text/plain',
      raw: JSON.stringify({ name: 'a', email: 'plain@example.test', password: 'secret123' }),
      headers: { 'Content-Type': 'text/plain' },
    },
    415,
    'unsupported_media_type',
  ],
  [
    {
      label: 'a form-encoded body',
      raw: 'name=a&email=form%40example.test&password=secret123',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    },
    415,
    'unsupported_media_type',
  ],
  [
    {
      label: 'a 2 MB multipart body',
      raw: `--x\r\n${'y'.repeat(2 * MB)}\r\n--x--`,
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    },
    415,
    'unsupported_media_type',
  ],
  [
    {
      label: 'a valid body sent as text/html',
      raw: JSON.stringify({ name: 'a', email: 'html@example.test', password: 'secret123' }),
      headers: { 'Content-Type': 'text/html' },
    },
    415,
    'unsupported_media_type',
  ],
];

describe.each([
  ['POST', '/api/auth/register'],
  ['POST', '/api/auth/login'],
])('%s %s with a hostile body', (method, path) => {
  it.each(AUTH_CASES.map(([h, status, code]) => [h.label, h, status, code] as const))(
    'answers %s with the contract error',
    async (_label, h, status, code) => {
      const res = await send(method, path, h);
      expect(res.status).toBe(status);
      expectContractError(res.status, res.body);
      expect(res.body.error.code).toBe(code);
    },
  );
});

describe('the auth endpoints with odd but acceptable bodies', () => {
  it('accept application/json with a charset parameter', async () => {
    const res = await t.call('POST', '/api/auth/register', {
      raw: JSON.stringify({ name: 'Charset', email: 'charset@example.test', password: 'secret123' }),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(201);
  });

  it('take one byte-order mark before the JSON, not two (found by the hostile suite)', async () => {
    const body = JSON.stringify({ name: 'Bom', email: 'bom@example.test', password: 'secret123' });
    const two = await t.call('POST', '/api/auth/register', {
      raw: `\ufeff\ufeff${body}`,
      headers: JSON_HEADERS,
    });
    expect([two.status, two.body.error?.code]).toEqual([400, 'malformed_json']);
    const bare = await t.call('PUT', '/api/settings', {
      token: adminToken,
      raw: '\ufeff\ufeff{}',
      headers: JSON_HEADERS,
    });
    expect([bare.status, bare.body.error?.code]).toEqual([400, 'malformed_json']);
    const one = await t.call('POST', '/api/auth/register', { raw: `\ufeff${body}`, headers: JSON_HEADERS });
    expect(one.status).toBe(201);
  });

  it('do not let a __proto__ key reach any object', async () => {
    const res = await t.call('POST', '/api/auth/register', {
      body: '{"name":"Proto","email":"proto@example.test","password":"secret123","__proto__":{"role":"admin","isAdmin":true}}',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.role).toBe('user');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
});

// ---- every other body-taking route, found in the app's own route table ----

const FAKE_ID = '0123456789abcdef01234567';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Body-taking API routes with their path parameters filled by `idFor` (a made-up id by default). */
function apiRoutes(idFor: (path: string) => string = () => FAKE_ID): [string, string][] {
  const seen = new Set<string>();
  const out: [string, string][] = [];
  for (const r of t.app.routes) {
    if (!BODY_METHODS.has(r.method) || !r.path.startsWith('/api/') || r.path.includes('*')) continue;
    const path = r.path.replace(/:[^/]+/g, () => idFor(r.path));
    const key = `${r.method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([r.method, path]);
  }
  return out;
}

const SHOTGUN = {
  name: 1,
  email: {},
  password: [],
  confirmPassword: null,
  title: 12,
  description: { $ne: null },
  reward: '5',
  amount: 'ten',
  status: { toString: 'approved' },
  feedback: 7,
  reason: [],
  rejectionReason: 9,
  paymentMethod: 3,
  accountDetails: 'x',
  isFeatured: 'yes',
  maxCompletions: -1,
  deadline: {},
  category: 5,
  notificationType: [],
  playerId: {},
  minimumPayout: 'a lot',
  usedComments: 'x',
  balance: -1,
  role: 'root',
};

const SWEEP: Hostile[] = [
  json('malformed JSON', '{"a":'),
  json('a JSON array', '[1,2,3]'),
  json('null', 'null'),
  json('a bare number', '42'),
  json('wrong types in every common field', SHOTGUN),
  json('a 1 MB string field', { name: 'n'.repeat(MB) }),
  json('a 300 KB body', { pad: 'x'.repeat(300 * 1024) }),
  json('deeply nested arrays', deepNest(50_000)),
  { label: 'wrong Content-Type', raw: '{"x":1}', headers: { 'Content-Type': 'text/plain' } },
];

describe('every body-taking API route', () => {
  it('is found in the route table (register and login at least)', () => {
    const routes = apiRoutes().map(([m, p]) => `${m} ${p}`);
    expect(routes).toContain('POST /api/auth/register');
    expect(routes).toContain('POST /api/auth/login');
  });

  it.each(SWEEP.map((h) => [h.label, h] as const))(
    'answers %s with a 4xx in the contract shape, for an admin, a user and a visitor',
    async (_label, h) => {
      const failures: string[] = [];
      for (const [method, path] of apiRoutes()) {
        for (const [who, token] of [
          ['admin', adminToken],
          ['user', userToken],
          ['no token', undefined],
        ] as const) {
          const res = await send(method, path, h, token);
          const ok =
            res.status >= 400 &&
            res.status < 500 &&
            res.body?.success === false &&
            typeof res.body?.error?.code === 'string' &&
            typeof res.body?.error?.message === 'string';
          if (!ok)
            failures.push(
              `${method} ${path} (${who}): ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
            );
        }
      }
      expect(failures).toEqual([]);
    },
  );
});

describe('every body-taking API route, with ids that exist', () => {
  /** Fresh rows for each case: a body-less route (delete, approve) may act on them and succeed. */
  async function realIds() {
    const admin = await makeUser(t.deps.db, { role: 'admin' });
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 100_000, admin._id);
    const taskId = await makeTask(t.deps.db, { created_by: admin._id });
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const withdrawalId = await makeWithdrawal(t.deps.db, user._id);
    const idFor = (path: string) =>
      path.startsWith('/api/tasks/')
        ? taskId
        : path.startsWith('/api/submissions/')
          ? submissionId
          : path.startsWith('/api/admin/withdraws/')
            ? withdrawalId
            : FAKE_ID;
    return { idFor, tokens: [await t.tokenFor(admin), await t.tokenFor(user)] };
  }

  it.each(SWEEP.map((h) => [h.label, h] as const))('never answers %s with a 5xx', async (_label, h) => {
    const { idFor, tokens } = await realIds();
    const failures: string[] = [];
    // deletions last, so that the other routes still find the rows
    const routes = apiRoutes(idFor).sort(([a], [b]) => Number(a === 'DELETE') - Number(b === 'DELETE'));
    for (const token of tokens) {
      for (const [method, path] of routes) {
        const res = await send(method, path, h, token);
        const ok = res.status < 500 && (res.status < 400 || typeof res.body?.error?.code === 'string');
        if (!ok) failures.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
