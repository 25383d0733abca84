import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error';
import { LoginThrottle } from './throttle';

const limits = { perAccount: 2, perAddress: 3, windowSeconds: 30 };

async function refusal(p: Promise<void>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('LoginThrottle', () => {
  it('lets attempts through until an account has used its limit, from any address', async () => {
    const throttle = new LoginThrottle(limits);
    await throttle.attempt('a@x.test', '1.1.1.1');
    await throttle.attempt('a@x.test', '1.1.1.2');
    const err = await refusal(throttle.attempt('a@x.test', '2.2.2.2'));
    expect(err.status).toBe(429);
    expect(err.code).toBe('too_many_requests');
    expect(err.extra.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.extra.retryAfter).toBeLessThanOrEqual(30);
    // another account from a fresh address is not affected
    await throttle.attempt('b@x.test', '3.3.3.3');
  });

  it('refuses an address that has used its limit, for every account', async () => {
    const throttle = new LoginThrottle(limits);
    for (const email of ['a@x.test', 'b@x.test', 'c@x.test']) await throttle.attempt(email, '9.9.9.9');
    expect((await refusal(throttle.attempt('d@x.test', '9.9.9.9'))).status).toBe(429);
    await throttle.attempt('d@x.test', '8.8.8.8');
  });

  it('counts attempts made at the same moment', async () => {
    const throttle = new LoginThrottle(limits);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => throttle.attempt('burst@x.test', '7.7.7.7')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
  });

  it('starts an account afresh and gives the address its attempt back after a success', async () => {
    const throttle = new LoginThrottle(limits);
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
});

describe('registration throttle', () => {
  it('refuses registrations from one address beyond the hourly limit with a 429 and Retry-After', async () => {
    const { createTestApp } = await import('../../testing/test-app');
    const t = await createTestApp({
      throttle: { perAccount: 5, perAddress: 30, windowSeconds: 60, registrationsPerAddress: 2 },
    });
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
});
