import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { openApp } from '../../bootstrap';
import { readConfig } from '../../config';
import { sharedDatabase } from '../../testing/cluster';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { burst, listen } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from './users.repository';

// the app's clock, moved by the tests
let now = Date.parse('2026-06-01T10:00:00.000Z');
const clock = () => new Date(now);

let t: TestApp;
let admin: UserRow;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1' }, clock });
  admin = await makeUser(t.deps.db, { role: 'admin', name: 'Admin' });
  // remembered: the tests move the clock past a day
  adminToken = await t.tokenFor(admin, true);
});
afterAll(async () => {
  await t.dispose();
});

let address = 10;
/** A real sign-in through the API, from an address and a browser of its own. */
async function signIn(user: UserRow, userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0') {
  const ip = `198.51.100.${address++}`;
  const res = await t.call('POST', '/api/auth/login', {
    body: { email: user.email, password: TEST_PASSWORD },
    headers: { 'X-Forwarded-For': ip, 'User-Agent': userAgent },
  });
  expect(res.status).toBe(200);
  return { token: res.body.token as string, ip };
}
const me = (token: string) => t.call('GET', '/api/users/me', { token });
const sessions = (token: string) => t.call('GET', '/api/users/me/sessions', { token });
const rows = (userId: string) =>
  t.deps.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
const auditOf = (action: string, targetId: string) =>
  t.deps.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .execute();

describe('a sign-in is a session the server knows', () => {
  it('lists the sessions with the address as seen behind the proxy, the browser and which is current', async () => {
    const user = await makeUser(t.deps.db);
    const first = await signIn(user, 'Firefox on Linux');
    const firstAt = new Date(now).toISOString();
    now += 1000;
    const second = await signIn(user, 'Safari on iPhone');
    const res = await sessions(second.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: expect.any(String),
        current: false,
        createdAt: firstAt,
        lastSeenAt: firstAt,
        userAgent: 'Firefox on Linux',
        ip: first.ip,
      },
      expect.objectContaining({ current: true, userAgent: 'Safari on iPhone', ip: second.ip }),
    ]);
    // the token names its session: nothing else of the account is in it
    const claims = JSON.parse(Buffer.from(second.token.split('.')[1], 'base64url').toString());
    expect(claims.sid).toBe(res.body.data[1].id);
  });

  it('moves lastSeenAt at most once a minute', async () => {
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const start = (await rows(user._id))[0].last_seen_at;
    now += 30_000;
    expect((await me(token)).status).toBe(200);
    // heartbeats are written together once a second: write the waiting ones now
    await t.deps.activity.flush();
    expect((await rows(user._id))[0].last_seen_at).toBe(start);
    now += 31_000;
    expect((await me(token)).status).toBe(200);
    await t.deps.activity.flush();
    expect((await rows(user._id))[0].last_seen_at).toBe(new Date(now).toISOString());
  });

  it('ends one session: its token is refused at once, the others go on', async () => {
    const user = await makeUser(t.deps.db);
    const a = await signIn(user);
    const b = await signIn(user);
    const list = (await sessions(a.token)).body.data;
    const other = list.find((s: { current: boolean }) => !s.current).id;
    const res = await t.call('DELETE', `/api/users/me/sessions/${other}`, { token: a.token });
    expect(res.status).toBe(200);
    const refused = await me(b.token);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_token');
    expect((await me(a.token)).status).toBe(200);
    expect(await rows(user._id)).toHaveLength(1);
  });

  it('ends its own session too (signing out for good)', async () => {
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const [mine] = (await sessions(token)).body.data;
    const res = await t.call('DELETE', `/api/users/me/sessions/${mine.id}`, { token });
    expect(res.body.data).toEqual({ ended: 1, current: true });
    expect((await me(token)).status).toBe(401);
  });

  it('ends every other session with revoke-others, and refuses any field sent with it', async () => {
    const user = await makeUser(t.deps.db);
    const victim = await makeUser(t.deps.db);
    const victimToken = await t.tokenFor(victim);
    const here = await t.tokenFor(user);
    const others = [await t.tokenFor(user), await t.tokenFor(user, true)];
    // like every body-less route, it takes no fields: one sent is refused and ends nothing
    const refused = await t.call('POST', '/api/users/me/sessions/revoke-others', {
      token: here,
      body: { userId: victim._id, keep: others, all: true },
    });
    expect(refused.status).toBe(422);
    for (const token of [...others, victimToken]) expect((await me(token)).status).toBe(200);
    const res = await t.call('POST', '/api/users/me/sessions/revoke-others', { token: here, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ended: 2 });
    for (const token of others) expect((await me(token)).status).toBe(401);
    expect((await me(here)).status).toBe(200);
    expect((await me(victimToken)).status).toBe(200);
  });

  it("refuses to end another user's session (404), which goes on working", async () => {
    const owner = await makeUser(t.deps.db);
    const ownerToken = await t.tokenFor(owner);
    const [theirs] = (await sessions(ownerToken)).body.data;
    const intruder = await t.tokenFor(await makeUser(t.deps.db));
    const res = await t.call('DELETE', `/api/users/me/sessions/${theirs.id}`, { token: intruder });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('session_not_found');
    expect((await me(ownerToken)).status).toBe(200);
  });

  it.each([
    ['GET', '/api/users/me/sessions'],
    ['POST', '/api/users/me/sessions/revoke-others'],
    ['DELETE', '/api/users/me/sessions/abc'],
  ])('answers %s %s without a session with 401', async (method, path) => {
    const res = await t.call(method, path);
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });

  it('does not list a session past its end (its token has expired with it)', async () => {
    const user = await makeUser(t.deps.db);
    await t.tokenFor(user);
    now += 2 * 24 * 60 * 60 * 1000;
    const long = await t.tokenFor(user, true);
    const list = (await sessions(long)).body.data;
    expect(list).toHaveLength(1);
    expect(list[0].current).toBe(true);
  });

  it('ends one session once when ten requests end it at the same moment', async () => {
    const user = await makeUser(t.deps.db);
    const here = await t.tokenFor(user);
    await t.tokenFor(user);
    const other = (await sessions(here)).body.data.find((s: { current: boolean }) => !s.current).id;
    const replies = await burst(10, () =>
      t.call('DELETE', `/api/users/me/sessions/${other}`, { token: here }),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 404)).toHaveLength(9);
    expect(await rows(user._id)).toHaveLength(1);
  });

  it('stays whole under a flood of revoke-others from many sessions of one account', async () => {
    const user = await makeUser(t.deps.db);
    const tokens = await Promise.all(Array.from({ length: 12 }, () => t.tokenFor(user)));
    const replies = await burst(tokens.length, (i) =>
      t.call('POST', '/api/users/me/sessions/revoke-others', { token: tokens[i] }),
    );
    // each either ended the others or had been ended first: never a server error
    for (const r of replies) expect([200, 401]).toContain(r.status);
    // one of them came first and ended the others: its session alone is left
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await rows(user._id)).toHaveLength(1);
  });
});

describe('a password change ends the other sessions', () => {
  it('keeps the changing session (with a fresh token) and ends and unlists every other one', async () => {
    const user = await makeUser(t.deps.db);
    const here = await signIn(user);
    const other = await signIn(user);
    const res = await t.call('PUT', '/api/users/me', {
      token: here.token,
      headers: { 'X-Forwarded-For': here.ip },
      body: { name: user.name, password: 'a-new-password', currentPassword: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect((await me(other.token)).status).toBe(401);
    expect((await me(here.token)).status).toBe(401);
    const list = (await sessions(res.body.token)).body.data;
    expect(list).toEqual([expect.objectContaining({ current: true, ip: here.ip })]);
    expect(await rows(user._id)).toHaveLength(1);
  });

  it('ends and unlists every session when the password changes by any other way (a reset)', async () => {
    const user = await makeUser(t.deps.db);
    const a = await t.tokenFor(user);
    await t.tokenFor(user);
    // what a password reset does to the account: a new hash, written straight to the row
    await t.deps.db
      .updateTable('users')
      .set({ password_hash: '$argon2id$v=19$other' })
      .where('_id', '=', user._id)
      .execute();
    expect((await me(a)).status).toBe(401);
    const fresh = { ...user, password_hash: '$argon2id$v=19$other' };
    const list = (await sessions(await t.tokenFor(fresh))).body.data;
    expect(list).toEqual([expect.objectContaining({ current: true })]);
  });

  it('ends every session of a user whose password an admin sets', async () => {
    const user = await makeUser(t.deps.db);
    await t.tokenFor(user);
    await t.tokenFor(user, true);
    const res = await t.call('PUT', `/api/admin/users/${user._id}`, {
      token: adminToken,
      body: { name: user.name, email: user.email, role: 'user', status: 'active', password: 'set-by-admin' },
    });
    expect(res.status).toBe(200);
    expect(await rows(user._id)).toEqual([]);
  });

  it('ends every session and the second factor of a deleted account', async () => {
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const res = await t.call('DELETE', `/api/admin/users/${user._id}`, { token: adminToken });
    expect(res.status).toBe(200);
    expect((await me(token)).status).toBe(401);
    expect(await rows(user._id)).toEqual([]);
  });
});

describe("an admin sees and ends a user's sessions", () => {
  it('lists them with the two-factor state, and ends one, audited', async () => {
    const user = await makeUser(t.deps.db);
    const a = await signIn(user);
    const b = await signIn(user);
    const seen = await t.call('GET', `/api/admin/users/${user._id}/security`, { token: adminToken });
    expect(seen.status).toBe(200);
    expect(seen.body.data.twoFactorEnabled).toBe(false);
    expect(seen.body.data.sessions).toHaveLength(2);
    // none of them is the admin's own
    expect(seen.body.data.sessions.every((s: { current: boolean }) => !s.current)).toBe(true);
    const target = seen.body.data.sessions.find((s: { ip: string }) => s.ip === a.ip).id;
    const res = await t.call('DELETE', `/api/admin/users/${user._id}/sessions/${target}`, {
      token: adminToken,
    });
    expect(res.status).toBe(200);
    expect((await me(a.token)).status).toBe(401);
    expect((await me(b.token)).status).toBe(200);
    const [logged] = await auditOf('user.sessions_end', user._id);
    expect(logged.actor_id).toBe(admin._id);
    expect(JSON.parse(logged.changes)).toEqual({ session: target });
  });

  it('ends all of them at once, audited with the count', async () => {
    const user = await makeUser(t.deps.db);
    const tokens = [await t.tokenFor(user), await t.tokenFor(user), await t.tokenFor(user, true)];
    const res = await t.call('DELETE', `/api/admin/users/${user._id}/sessions`, { token: adminToken });
    expect(res.body.data).toEqual({ ended: 3 });
    for (const token of tokens) expect((await me(token)).status).toBe(401);
    const [logged] = await auditOf('user.sessions_end', user._id);
    expect(JSON.parse(logged.changes)).toEqual({ sessions: 3 });
  });

  it('answers 404 for an unknown user or session, writing nothing to the log', async () => {
    const user = await makeUser(t.deps.db);
    const missing = await t.call('DELETE', `/api/admin/users/${user._id}/sessions/nope`, {
      token: adminToken,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('session_not_found');
    const nobody = await t.call('GET', '/api/admin/users/ffffffffffffffffffffffff/security', {
      token: adminToken,
    });
    expect(nobody.status).toBe(404);
    expect(await auditOf('user.sessions_end', user._id)).toEqual([]);
  });

  it.each([
    ['GET', 'security'],
    ['DELETE', 'sessions'],
  ])('refuses %s %s to a worker (403) and a visitor (401)', async (method, tail) => {
    const user = await makeUser(t.deps.db);
    const keep = await t.tokenFor(user);
    const worker = await t.tokenFor(await makeUser(t.deps.db));
    const path = `/api/admin/users/${user._id}/${tail}`;
    expect((await t.call(method, path, { token: worker })).status).toBe(403);
    expect((await t.call(method, path)).status).toBe(401);
    expect((await me(keep)).status).toBe(200);
  });

  it('stops the powers of an admin demoted since the token was issued', async () => {
    const other = await makeUser(t.deps.db, { role: 'admin' });
    const otherToken = await t.tokenFor(other);
    const user = await makeUser(t.deps.db);
    await t.deps.db.updateTable('users').set({ role: 'user' }).where('_id', '=', other._id).execute();
    const res = await t.call('DELETE', `/api/admin/users/${user._id}/sessions`, { token: otherToken });
    expect(res.status).toBe(403);
  });
});

describe('a session ended on one node', () => {
  it('is refused at once by another node on the same database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-sessions-'));
    const database = await sharedDatabase();
    const config = readConfig({ DATA_DIR: dir, ...database.env });
    const nodes = [await openApp(config, { web: new Map() }), await openApp(config, { web: new Map() })];
    const servers = await Promise.all(nodes.map((n) => listen(createApp(n.deps))));
    try {
      const user = await makeUser(nodes[0].deps.db);
      const call = (node: number, method: string, path: string, token?: string, body?: unknown) =>
        fetch(`${servers[node].url}${path}`, {
          method,
          headers: {
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...(body ? { 'Content-Type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        });
      const login = async (node: number) =>
        (
          await (
            await call(node, 'POST', '/api/auth/login', undefined, {
              email: user.email,
              password: TEST_PASSWORD,
            })
          ).json()
        ).token as string;
      const kept = await login(0);
      const doomed = await login(1);
      // both nodes know both sessions
      for (const node of [0, 1])
        for (const token of [kept, doomed])
          expect((await call(node, 'GET', '/api/users/me', token)).status).toBe(200);
      const list = await (await call(0, 'GET', '/api/users/me/sessions', kept)).json();
      const id = list.data.find((s: { current: boolean }) => !s.current).id;
      expect((await call(0, 'DELETE', `/api/users/me/sessions/${id}`, kept)).status).toBe(200);
      const refused = await call(1, 'GET', '/api/users/me', doomed);
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.code).toBe('invalid_token');
      expect((await call(1, 'GET', '/api/users/me', kept)).status).toBe(200);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      for (const n of nodes) await n.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
