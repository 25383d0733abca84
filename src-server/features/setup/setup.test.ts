import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { openApp } from '../../bootstrap';
import { readConfig } from '../../config';
import { sharedDatabase } from '../../testing/cluster';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp, testsOnPostgres } from '../../testing/test-app';
import { openSetupIfNoAdmin, setupLinkLine } from './setup.service';

// The first-run setup link: `serve` opens the gate while the database has no active
// admin; the token in the link is the only access to these routes.
let t: TestApp;
let token: string;
beforeEach(async () => {
  t = await createTestApp();
  token = await t.deps.setup.open();
});
afterEach(() => t.dispose());

const FIRST = {
  name: 'Site Owner',
  email: 'Owner@Example.TEST',
  password: 'owner-pass-1',
  confirmPassword: 'owner-pass-1',
};
const withToken = (value: string | undefined): Record<string, string> =>
  value === undefined ? {} : { 'X-Setup-Token': value };
const check = (value?: string) => t.call('GET', '/api/setup', { headers: withToken(value) });
const create = (value: string | undefined, body: unknown = FIRST) =>
  t.call('POST', '/api/setup', { headers: withToken(value), body });
const admins = () => t.deps.db.selectFrom('users').selectAll().where('role', '=', 'admin').execute();
const users = () => t.deps.db.selectFrom('users').selectAll().execute();

describe('checking the setup link', () => {
  const changed = (s: string) => `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`;
  it.each<[string, () => string | undefined]>([
    ['no token', () => undefined],
    ['an empty token', () => ''],
    ['a wrong token', () => 'x'.repeat(43)],
    ['the token with its last character changed', () => changed(token)],
    ['the token with more after it', () => `${token}x`],
  ])('refuses %s with 403 setup_token_invalid', async (_label, value) => {
    const res = await check(value());
    expect([res.status, res.body.error.code]).toEqual([403, 'setup_token_invalid']);
    expect(res.body.error.message).toBe("This setup link is not valid: use the link in the server's log");
  });

  it('accepts the open token', async () => {
    const res = await check(token);
    expect([res.status, res.body]).toEqual([200, { success: true, data: { open: true } }]);
  });

  it('refuses every token when no gate was opened (a start that found an admin, or none yet)', async () => {
    await t.deps.setup.close();
    expect((await check(token)).status).toBe(403);
  });
});

describe('creating the first admin', () => {
  it('creates an active admin, signs them in, and the link is refused afterwards', async () => {
    const res = await create(token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Admin account created',
      data: { name: 'Site Owner', email: 'owner@example.test', role: 'admin', status: 'active', balance: 0 },
    });
    const me = await t.call('GET', '/api/users/me', { token: res.body.token });
    expect([me.status, me.body.data.role]).toEqual([200, 'admin']);
    const stats = await t.call('GET', '/api/admin/stats', { token: res.body.token });
    expect(stats.status).toBe(200);
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: 'owner@example.test', password: 'owner-pass-1' },
    });
    expect(login.status).toBe(200);
    // used: the same link, checked or sent again, and no link at all, are all refused
    expect(await t.deps.setup.isOpen()).toBe(false);
    for (const res of [await check(token), await create(token, { ...FIRST, email: 'second@example.test' })]) {
      expect([res.status, res.body.error.code]).toEqual([409, 'setup_done']);
    }
    expect((await create(undefined, { ...FIRST, email: 'third@example.test' })).status).toBe(409);
    expect(await admins()).toHaveLength(1);
  });

  it('refuses without the token, whatever the body, and creates nothing', async () => {
    for (const value of [undefined, '', 'wrong']) {
      const res = await create(value);
      expect([res.status, res.body.error.code]).toEqual([403, 'setup_token_invalid']);
    }
    expect(await users()).toEqual([]);
    expect(await t.deps.setup.isOpen()).toBe(true);
  });

  it.each([
    [
      'a short password',
      { password: '12345', confirmPassword: '12345' },
      'password',
      'Password must be at least 6 characters',
    ],
    [
      'a password over 200 characters',
      { password: 'p'.repeat(201), confirmPassword: 'p'.repeat(201) },
      'password',
      'This value is too long',
    ],
    [
      'passwords that differ',
      { confirmPassword: 'other-pass-1' },
      'confirmPassword',
      'Passwords do not match',
    ],
    ['a malformed email', { email: 'owner@' }, 'email', 'Please enter a valid email address'],
    ['a blank name', { name: '   ' }, 'name', 'Name is required'],
  ])('refuses %s with 422 and keeps the link usable', async (_label, change, field, message) => {
    const res = await create(token, { ...FIRST, ...change });
    expect([res.status, res.body.error.code, res.body.error.errors[field]]).toEqual([
      422,
      'validation_error',
      message,
    ]);
    expect(await users()).toEqual([]);
    expect((await create(token)).status).toBe(201);
  });

  it('refuses an email a user already registered with (409 email_in_use), and the link stays usable', async () => {
    await makeUser(t.deps.db, { email: 'owner@example.test' });
    const res = await create(token);
    expect([res.status, res.body.error.code]).toEqual([409, 'email_in_use']);
    expect(await admins()).toEqual([]);
    expect((await create(token, { ...FIRST, email: 'owner2@example.test' })).status).toBe(201);
  });

  it('takes only name, email and password: other fields sent are ignored', async () => {
    const res = await create(token, {
      ...FIRST,
      role: 'user',
      status: 'banned',
      balance: 5000,
      total_earned: 100,
      _id: 'chosen-id',
      password_hash: 'x',
    });
    expect(res.status).toBe(201);
    const [row] = await admins();
    expect(row).toMatchObject({ role: 'admin', status: 'active', balance: 0, total_earned: 0 });
    expect(row._id).not.toBe('chosen-id');
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('makes one admin of two requests sent at once with the same link', async () => {
    const replies = await Promise.all([
      create(token, { ...FIRST, email: 'one@example.test' }),
      create(token, { ...FIRST, email: 'two@example.test' }),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(replies.find((r) => r.status === 409)?.body.error.code).toBe('setup_done');
    expect(await admins()).toHaveLength(1);
  });

  it('is refused once an admin exists some other way (create-admin while the server runs)', async () => {
    await makeUser(t.deps.db, { role: 'admin' });
    const res = await create(token, { ...FIRST, email: 'late@example.test' });
    expect([res.status, res.body.error.code]).toEqual([409, 'setup_done']);
    expect(await t.deps.setup.isOpen()).toBe(false);
    expect(await admins()).toHaveLength(1);
  });

  it('still opens for a database whose only admins are suspended or deleted', async () => {
    await makeUser(t.deps.db, { role: 'admin', status: 'suspended' });
    await makeUser(t.deps.db, { role: 'admin', deleted_at: new Date().toISOString() });
    expect((await check(token)).status).toBe(200);
  });
});

// on the PostgreSQL run every test app is a node of a cluster: its tokens are the shared kind
describe.skipIf(testsOnPostgres)('the setup link on one server', () => {
  it('keeps one token: a new start ends the earlier link', async () => {
    const next = await t.deps.setup.open();
    expect((await check(token)).status).toBe(403);
    expect((await check(next)).status).toBe(200);
  });

  it('keeps only the digest of the token', async () => {
    const rows = await t.deps.db.selectFrom('setup_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('opens none at a start that finds an admin, and ends one left open', async () => {
    await makeUser(t.deps.db, { role: 'admin' });
    expect(await openSetupIfNoAdmin(t.deps)).toBeNull();
    expect(await t.deps.setup.isOpen()).toBe(false);
  });
});

describe('the setup link on nodes sharing a database', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let nodes: Awaited<ReturnType<typeof openApp>>[];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'taskreward-setup-nodes-'));
    database = await sharedDatabase();
    const config = readConfig({ DATA_DIR: dir, ...database.env });
    nodes = [await openApp(config, { web: new Map() }), await openApp(config, { web: new Map() })];
  });
  afterEach(async () => {
    for (const node of nodes) await node.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  const on = (node: number, method: string, value: string, body?: unknown) =>
    createApp(nodes[node].deps).request('/api/setup', {
      method,
      headers: { 'X-Setup-Token': value, 'Content-Type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  it('takes a link printed by one node on the other, once, and ends the links of every node', async () => {
    const first = (await openSetupIfNoAdmin(nodes[0].deps))!;
    const second = (await openSetupIfNoAdmin(nodes[1].deps))!;
    // each node's start adds its own link; neither ends the other's
    for (const value of [first, second]) {
      expect((await on(0, 'GET', value)).status).toBe(200);
      expect((await on(1, 'GET', value)).status).toBe(200);
    }
    expect((await on(1, 'POST', first, FIRST)).status).toBe(201);
    for (const [node, value] of [
      [0, first],
      [1, first],
      [0, second],
    ] as const) {
      const res = await on(node, 'POST', value, { ...FIRST, email: `again-${node}@example.test` });
      expect(res.status).toBe(409);
    }
    expect(await nodes[0].deps.setup.isOpen()).toBe(false);
    const rows = await nodes[0].deps.db.selectFrom('users').select('role').execute();
    expect(rows).toEqual([{ role: 'admin' }]);
  });

  it('prints a line saying the link works on any node', () => {
    expect(setupLinkLine('http://127.0.0.1:3000', 'tok', true)).toMatch(
      /\(the link works once, on any node, until an admin exists\)$/,
    );
  });
});

describe('the setup link line', () => {
  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/setup?token='],
    ['http://0.0.0.0:8080', 'http://127.0.0.1:8080/setup?token='],
    ['http://[::]:3000', 'http://[::1]:3000/setup?token='],
    ['http://[::1]:3000', 'http://[::1]:3000/setup?token='],
  ])('for a server on %s links %s…', (origin, link) => {
    const line = setupLinkLine(origin, 'tok_en-1');
    expect(line).toContain(`${link}tok_en-1 `);
    expect(line).toMatch(
      /^no admin account yet: create the first one at \S+ \(the link works once, until the server stops\)$/,
    );
  });
});
