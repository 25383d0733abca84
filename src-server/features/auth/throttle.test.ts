import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openApp } from '../../bootstrap';
import { readConfig } from '../../config';
import { AppError } from '../../http/app-error';
import { NODE_MODES, sharedDatabase } from '../../testing/cluster';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { databaseLimiters, RATE_LIMIT_CLEANUP_MS } from './database-limiter';
import { type Limiters, LoginThrottle, memoryLimiters } from './throttle';

const limits = {
  perPair: 2,
  perAddress: 3,
  accountSlowdownAfter: 4,
  windowSeconds: 30,
  slowdownStepMs: 100,
  slowdownMaxMs: 450,
};

async function refusal(p: Promise<void>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

// the counters in memory (one node), and in the database (many nodes; issue 18) over a test app's
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

/** A throttle whose waits are recorded instead of slept. */
function recorded() {
  const waits: number[] = [];
  const throttle = new LoginThrottle(
    limits,
    async (ms) => {
      waits.push(ms);
    },
    limiters(),
  );
  return { throttle, waits };
}

/** One wrong password, as the sign-in runs it: counted, then failed. */
async function fail(throttle: LoginThrottle, email: string, ip: string) {
  await throttle.attempt(email, ip);
  await throttle.failed(email);
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
    const err = await refusal(throttle.attempt('a@x.test', '1.1.1.1'));
    expect(err.status).toBe(429);
    expect(err.code).toBe('too_many_requests');
    expect(err.extra.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.extra.retryAfter).toBeLessThanOrEqual(30);
    // the same account from another address, and another account from the first one, go on
    await throttle.attempt('a@x.test', '2.2.2.2');
    await throttle.attempt('b@x.test', '3.3.3.3');
  });

  it('refuses an address that has used its limit, for every account', async () => {
    const { throttle } = recorded();
    for (const email of ['a@x.test', 'b@x.test', 'c@x.test']) await fail(throttle, email, '9.9.9.9');
    expect((await refusal(throttle.attempt('d@x.test', '9.9.9.9'))).status).toBe(429);
    await throttle.attempt('d@x.test', '8.8.8.8');
  });

  it('counts attempts made at the same moment', async () => {
    const { throttle } = recorded();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => throttle.attempt('burst@x.test', '7.7.7.7')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
  });

  it('starts a pair afresh and gives the address its attempt back after a success', async () => {
    const { throttle } = recorded();
    await throttle.attempt('a@x.test', '1.1.1.1');
    await throttle.attempt('a@x.test', '1.1.1.1');
    await throttle.succeeded('a@x.test', '1.1.1.1');
    await throttle.attempt('a@x.test', '1.1.1.1');
    await throttle.succeeded('a@x.test', '1.1.1.1');
    // only the first attempt still counts against the address: two more, then a refusal
    await throttle.attempt('b@x.test', '1.1.1.1');
    await throttle.attempt('c@x.test', '1.1.1.1');
    expect((await refusal(throttle.attempt('d@x.test', '1.1.1.1'))).status).toBe(429);
  });

  it('never refuses an account for its own count: a hundred addresses failing leave a fresh one free', async () => {
    const { throttle, waits } = recorded();
    for (let i = 0; i < 100; i++) await fail(throttle, 'admin@x.test', `10.0.0.${i}`);
    waits.length = 0;
    await throttle.attempt('admin@x.test', '192.168.1.1');
    expect(waits).toEqual([]);
  });

  it('slows down attempts on an attacked account from addresses that have been failing, up to a ceiling', async () => {
    const { throttle, waits } = recorded();
    // four failures from four addresses: at the slowdown threshold, nothing waits yet
    for (let i = 0; i < 4; i++) await fail(throttle, 'victim@x.test', `10.1.0.${i}`);
    expect(waits).toEqual([]);
    // a fifth failure takes the account one past the threshold
    await fail(throttle, 'victim@x.test', '10.1.0.1');
    expect(waits).toEqual([]);
    // from now on an address that has been failing waits before its password is checked
    await fail(throttle, 'victim@x.test', '10.1.0.2');
    expect(waits).toEqual([100]);
    for (let i = 4; i < 10; i++) await fail(throttle, 'victim@x.test', `10.1.0.${i}`);
    await throttle.attempt('victim@x.test', '10.1.0.3');
    expect(waits.at(-1)).toBe(450);
    expect(await throttle.slowdown('victim@x.test')).toBe(450);
    expect(await throttle.slowdown('other@x.test')).toBe(0);
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

describe('the counters in the database (issue 18)', () => {
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
    const throttle = new LoginThrottle(limits, async () => {}, databaseLimiters(db.deps.db));
    const email = `${'long'.repeat(60)}@example.test`;
    await throttle.attempt(email, '2001:db8::1');
    await throttle.failed(email);
    const stored = await rows();
    expect(stored.map((r) => r.key.split(':')[0]).sort()).toEqual([
      'login-account',
      'login-address',
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
