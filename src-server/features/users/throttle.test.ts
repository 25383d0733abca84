import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openApp } from '../../bootstrap';
import { readConfig } from '../../config';
import { AppError } from '../../errors';
import { NODE_MODES, sharedDatabase } from '../../testing/cluster';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { databaseLimiters, RATE_LIMIT_CLEANUP_MS } from './database-limiter';
import { type Limiters, type LoginAttempt, LoginThrottle, memoryLimiters } from './throttle';

const limits = {
  perPair: 2,
  perAddress: 3,
  accountLockoutAfter: 4,
  perDevice: 2,
  windowSeconds: 30,
};

async function refusal(p: Promise<void>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

// the counters in memory (one node), and in the database (many nodes) over a test app's
// SQLite file, emptied before each test
let db: TestApp;
beforeAll(async () => {
  db = await createTestApp();
});
afterAll(() => db.dispose());
const STORES: [string, () => Limiters][] = [
  ['in memory', () => memoryLimiters],
  ['in the database', () => databaseLimiters(db.deps.db)],
];

let limiters: () => Limiters = () => memoryLimiters;

function recorded() {
  return { throttle: new LoginThrottle(limits, limiters()) };
}

/** A sign-in attempt from a stranger to the account, or from a device holding its cookie. */
const who = (email: string, ip: string, device: string | null = null): LoginAttempt => ({
  email,
  ip,
  device,
});

/** One wrong password, as the sign-in runs it: counted, then failed. */
async function fail(throttle: LoginThrottle, email: string, ip: string, device: string | null = null) {
  await throttle.attempt(who(email, ip, device));
  await throttle.failed(who(email, ip, device));
}

describe.each(STORES)('LoginThrottle, counting %s', (_label, store) => {
  beforeEach(async () => {
    limiters = store;
    await db.deps.db.deleteFrom('rate_limits').execute();
  });

  it('refuses an (account, address) pair that used its limit, and only that pair', async () => {
    const { throttle } = recorded();
    await fail(throttle, 'a@x.test', '1.1.1.1');
    await fail(throttle, 'a@x.test', '1.1.1.1');
    const err = await refusal(throttle.attempt(who('a@x.test', '1.1.1.1')));
    expect(err.status).toBe(429);
    expect(err.code).toBe('too_many_requests');
    expect(err.extra.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.extra.retryAfter).toBeLessThanOrEqual(30);
    // the same account from another address, and another account from the first one, go on
    await throttle.attempt(who('a@x.test', '2.2.2.2'));
    await throttle.attempt(who('b@x.test', '3.3.3.3'));
  });

  it('refuses an address that has used its limit, for every account', async () => {
    const { throttle } = recorded();
    for (const email of ['a@x.test', 'b@x.test', 'c@x.test']) await fail(throttle, email, '9.9.9.9');
    expect((await refusal(throttle.attempt(who('d@x.test', '9.9.9.9')))).status).toBe(429);
    await throttle.attempt(who('d@x.test', '8.8.8.8'));
  });

  it('counts attempts made at the same moment', async () => {
    const { throttle } = recorded();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => throttle.attempt(who('burst@x.test', '7.7.7.7'))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
  });

  it('starts a pair afresh and gives the address its attempt back after a success', async () => {
    const { throttle } = recorded();
    await throttle.attempt(who('a@x.test', '1.1.1.1'));
    await throttle.attempt(who('a@x.test', '1.1.1.1'));
    await throttle.succeeded(who('a@x.test', '1.1.1.1'));
    await throttle.attempt(who('a@x.test', '1.1.1.1'));
    await throttle.succeeded(who('a@x.test', '1.1.1.1'));
    // only the first attempt still counts against the address: two more, then a refusal
    await throttle.attempt(who('b@x.test', '1.1.1.1'));
    await throttle.attempt(who('c@x.test', '1.1.1.1'));
    expect((await refusal(throttle.attempt(who('d@x.test', '1.1.1.1')))).status).toBe(429);
  });

  it('locks an account to strangers once its failures from many addresses reach the limit', async () => {
    const { throttle } = recorded();
    for (let i = 0; i < 4; i++) await fail(throttle, 'victim@x.test', `10.1.0.${i}`);
    expect(await throttle.lock('victim@x.test')).not.toBeNull();
    expect(await throttle.lock('other@x.test')).toBeNull();
    const err = await refusal(throttle.attempt(who('victim@x.test', '10.1.0.200')));
    expect([err.status, err.code]).toEqual([429, 'too_many_requests']);
    expect(err.extra.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.extra.retryAfter).toBeLessThanOrEqual(30);
    // another account is not touched
    await throttle.attempt(who('other@x.test', '10.1.0.200'));
  });

  it('lets an address that signed in to the account, a device with its cookie and a session through a lockout', async () => {
    const { throttle } = recorded();
    await throttle.attempt(who('owner@x.test', '192.168.1.1'));
    await throttle.succeeded(who('owner@x.test', '192.168.1.1'));
    for (let i = 0; i < 4; i++) await fail(throttle, 'owner@x.test', `10.2.0.${i}`);
    await refusal(throttle.attempt(who('owner@x.test', '192.168.1.2')));
    await throttle.attempt(who('owner@x.test', '192.168.1.1'));
    await throttle.attempt(who('owner@x.test', '192.168.1.2', 'device-nonce'));
    await throttle.attempt({ ...who('owner@x.test', '192.168.1.3'), signedIn: true });
    // known to this account only
    await throttle.attempt(who('neighbour@x.test', '192.168.1.1'));
  });

  it('counts the failures of a device, which vouches for nothing past its own limit', async () => {
    const { throttle } = recorded();
    for (let i = 0; i < 4; i++) await fail(throttle, 'owner@x.test', `10.3.0.${i}`);
    await fail(throttle, 'owner@x.test', '10.3.1.1', 'stolen');
    await fail(throttle, 'owner@x.test', '10.3.1.2', 'stolen');
    await refusal(throttle.attempt(who('owner@x.test', '10.3.1.3', 'stolen')));
    // another device of the account is still its owner's
    await throttle.attempt(who('owner@x.test', '10.3.1.3', 'own'));
  });

  it('counts the attempts of strangers made at the same moment, letting no more than the limit through', async () => {
    const { throttle } = recorded();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => throttle.attempt(who('burst@x.test', `10.4.0.${i}`))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
  });

  it('gives the account its attempt back when the password was right or never checked', async () => {
    const { throttle } = recorded();
    for (let i = 0; i < 3; i++) await fail(throttle, 'typo@x.test', `10.5.0.${i}`);
    await throttle.attempt(who('typo@x.test', '10.5.1.1'));
    await throttle.refund(who('typo@x.test', '10.5.1.1'));
    await throttle.attempt(who('typo@x.test', '10.5.1.2'));
    await throttle.succeeded(who('typo@x.test', '10.5.1.2'));
    expect(await throttle.lock('typo@x.test')).toBeNull();
    await fail(throttle, 'typo@x.test', '10.5.1.3');
    expect(await throttle.lock('typo@x.test')).not.toBeNull();
  });
});

describe.each(NODE_MODES)('registration throttle (%s)', (_mode, env) => {
  it('refuses registrations from one address beyond the hourly limit with a 429 and Retry-After', async () => {
    const t = await createTestApp({ env, throttle: { registrationsPerAddress: 2 } });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (const n of [1, 2, 3]) {
        const res = await t.call('POST', '/api/auth/register', {
          body: { name: `R${n}`, email: `r${n}@example.test`, password: 'secret123' },
        });
        statuses.push(res.status);
        retryAfter = res.headers.get('Retry-After');
      }
      expect(statuses).toEqual([201, 201, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      await t.dispose();
    }
  });

  it('counts a registration with an email already in use like any other, so probing costs the same', async () => {
    const { makeUser } = await import('../../testing/factories');
    const t = await createTestApp({ env, throttle: { registrationsPerAddress: 3 } });
    try {
      const taken = await makeUser(t.deps.db, { email: 'taken@example.test' });
      const probe = () =>
        t.call('POST', '/api/auth/register', {
          body: { name: 'Probe', email: taken.email, password: 'secret123' },
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await probe()).status);
      expect(statuses).toEqual([409, 409, 409, 429]);
      const fresh = await t.call('POST', '/api/auth/register', {
        body: { name: 'New', email: 'fresh@example.test', password: 'secret123' },
      });
      expect(fresh.status).toBe(429);
    } finally {
      await t.dispose();
    }
  });
});

describe('the counters in the database', () => {
  beforeEach(async () => {
    await db.deps.db.deleteFrom('rate_limits').execute();
  });
  const rows = () => db.deps.db.selectFrom('rate_limits').selectAll().orderBy('key').execute();

  it('starts a window afresh once it has ended, and keeps its end while it lasts', async () => {
    let now = 1_000_000;
    const limiter = databaseLimiters(db.deps.db, () => now)('test', 2, 10);
    expect((await limiter.consume('k')).consumedPoints).toBe(1);
    now += 4_000;
    const second = await limiter.consume('k');
    expect([second.consumedPoints, second.remainingPoints, second.msBeforeNext]).toEqual([2, 0, 6_000]);
    const refused = await limiter.consume('k').then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ consumedPoints: 3, msBeforeNext: 6_000 });
    now += 6_000;
    expect(await limiter.get('k')).toBeNull();
    const fresh = await limiter.consume('k');
    expect([fresh.consumedPoints, fresh.msBeforeNext]).toEqual([1, 10_000]);
  });

  it('gives points back and adds penalties without refusing, and forgets a deleted key', async () => {
    const limiter = databaseLimiters(db.deps.db)('test', 1, 60);
    await limiter.consume('k');
    await limiter.penalty('k', 5);
    expect((await limiter.get('k'))?.consumedPoints).toBe(6);
    await limiter.reward('k', 6);
    expect((await limiter.consume('k')).consumedPoints).toBe(1);
    expect(await limiter.delete('k')).toBe(true);
    expect(await limiter.get('k')).toBeNull();
    expect(await limiter.delete('k')).toBe(false);
  });

  it('keeps a hash of each key, never the email or the address, one row per limiter and key', async () => {
    const throttle = new LoginThrottle(limits, databaseLimiters(db.deps.db));
    const email = `${'long'.repeat(60)}@example.test`;
    await throttle.attempt(who(email, '2001:db8::1', 'a-device-nonce'));
    await throttle.failed(who(email, '2001:db8::1', 'a-device-nonce'));
    const stored = await rows();
    expect(stored.map((r) => r.key.split(':')[0]).sort()).toEqual([
      'login-account',
      'login-account-day',
      'login-address',
      'login-device',
      'login-pair',
    ]);
    for (const r of stored) {
      expect(r.key).toMatch(/^[a-z-]+:[A-Za-z0-9_-]{43}$/);
      expect(r.points).toBe(1);
    }
  });

  it('deletes the counts whose window has ended, at most once a cleanup interval', async () => {
    let now = 5_000_000;
    const limiter = databaseLimiters(db.deps.db, () => now)('test', 10, 1);
    await limiter.consume('old');
    now += 2_000;
    // the first write of this app already cleaned up: the ended window stays until the next turn
    await limiter.consume('new');
    expect((await rows()).length).toBe(2);
    now += RATE_LIMIT_CLEANUP_MS;
    await limiter.consume('newest');
    expect((await rows()).length).toBe(1);
  });
});

describe('two app nodes on one database', () => {
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const register = async (node: Awaited<ReturnType<typeof openApp>>, n: number) => {
    const { createApp } = await import('../../app');
    const res = await createApp(node.deps).request('/api/auth/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: `N${n}`,
        email: `n${n}@example.test`,
        password: 'secret123',
      }),
    });
    return res.status;
  };

  it.each([
    ['share the limits when they keep them in the database', true, [201, 201, 429, 429]],
    ['each count alone when they keep them in memory (one node only)', false, [201, 201, 201, 201]],
  ])('%s', async (_label, shared, expected) => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-nodes-'));
    dirs.push(dir);
    // two apps over one database (the data folder's SQLite file, or PostgreSQL on that run)
    const database = shared ? await sharedDatabase() : { env: {}, drop: async () => {} };
    drops.push(database.drop);
    const config = readConfig({ DATA_DIR: dir, ...database.env });
    const first = await openApp(config, { web: new Map(), throttle: { registrationsPerAddress: 2 } });
    const second = await openApp(config, { web: new Map(), throttle: { registrationsPerAddress: 2 } });
    try {
      const statuses = [];
      for (const [n, node] of [first, second, first, second].entries())
        statuses.push(await register(node, n));
      expect(statuses).toEqual(expected);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
