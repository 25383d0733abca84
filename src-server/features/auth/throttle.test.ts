import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error';
import { LoginThrottle } from './throttle';

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

/** A throttle whose waits are recorded instead of slept. */
function recorded() {
  const waits: number[] = [];
  const throttle = new LoginThrottle(limits, async (ms) => {
    waits.push(ms);
  });
  return { throttle, waits };
}

/** One wrong password, as the sign-in runs it: counted, then failed. */
async function fail(throttle: LoginThrottle, email: string, ip: string) {
  await throttle.attempt(email, ip);
  await throttle.failed(email);
}

describe('LoginThrottle', () => {
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

describe('registration throttle', () => {
  it('refuses registrations from one address beyond the hourly limit with a 429 and Retry-After', async () => {
    const { createTestApp } = await import('../../testing/test-app');
    const t = await createTestApp({ throttle: { registrationsPerAddress: 2 } });
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
    const { createTestApp } = await import('../../testing/test-app');
    const { makeUser } = await import('../../testing/factories');
    const t = await createTestApp({ throttle: { registrationsPerAddress: 3 } });
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
