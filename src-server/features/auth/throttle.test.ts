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
  it('lets attempts through until an account has used its failures', async () => {
    const throttle = new LoginThrottle(limits);
    await throttle.check('a@x.test', '1.1.1.1');
    await throttle.failed('a@x.test', '1.1.1.1');
    await throttle.check('a@x.test', '1.1.1.1');
    await throttle.failed('a@x.test', '1.1.1.1');
    const err = await refusal(throttle.check('a@x.test', '2.2.2.2'));
    expect(err.status).toBe(429);
    expect(err.code).toBe('too_many_requests');
    expect(err.extra.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.extra.retryAfter).toBeLessThanOrEqual(30);
    // another account from a fresh address is not affected
    await throttle.check('b@x.test', '3.3.3.3');
  });

  it('refuses an address that has used its failures, for every account', async () => {
    const throttle = new LoginThrottle(limits);
    for (const email of ['a@x.test', 'b@x.test', 'c@x.test']) await throttle.failed(email, '9.9.9.9');
    expect((await refusal(throttle.check('d@x.test', '9.9.9.9'))).status).toBe(429);
    await throttle.check('d@x.test', '8.8.8.8');
  });

  it('forgets the failures of an account after a success', async () => {
    const throttle = new LoginThrottle(limits);
    await throttle.failed('a@x.test', '1.1.1.1');
    await throttle.failed('a@x.test', '1.1.1.2');
    await throttle.succeeded('a@x.test');
    await throttle.check('a@x.test', '1.1.1.3');
  });
});
