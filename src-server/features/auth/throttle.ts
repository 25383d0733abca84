import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { fail } from '../../http/app-error';

export interface ThrottleLimits {
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
  /** New accounts per client address per hour (each costs a password hash). */
  registrationsPerAddress?: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  perAccount: 5,
  perAddress: 30,
  windowSeconds: 15 * 60,
  registrationsPerAddress: 30,
};

/**
 * Failed-login counters per account and per client address (429 with Retry-After beyond
 * them). An attempt is counted before its password is checked and given back when it
 * succeeds: counting only after the check let a burst of parallel guesses all slip past.
 */
export class LoginThrottle {
  private readonly account: RateLimiterMemory;
  private readonly address: RateLimiterMemory;
  private readonly registrations: RateLimiterMemory;

  constructor(limits: ThrottleLimits = DEFAULT_LIMITS) {
    this.account = new RateLimiterMemory({ points: limits.perAccount, duration: limits.windowSeconds });
    this.address = new RateLimiterMemory({ points: limits.perAddress, duration: limits.windowSeconds });
    this.registrations = new RateLimiterMemory({
      points: limits.registrationsPerAddress ?? DEFAULT_LIMITS.registrationsPerAddress ?? 30,
      duration: 60 * 60,
    });
  }

  /** Counts one registration from an address; a 429 beyond the hourly limit. */
  async registration(ip: string): Promise<void> {
    try {
      await this.registrations.consume(ip);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      throw fail.throttled(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    }
  }

  /** Counts one attempt; throws a 429 when either counter is used up. */
  async attempt(email: string, ip: string): Promise<void> {
    const results = await Promise.allSettled([this.account.consume(email), this.address.consume(ip)]);
    for (const r of results) {
      if (r.status === 'fulfilled') continue;
      if (!(r.reason instanceof RateLimiterRes)) throw r.reason;
      throw fail.throttled(Math.max(1, Math.ceil(r.reason.msBeforeNext / 1000)));
    }
  }

  /** A right password: the account starts afresh and the address gets its attempt back. */
  async succeeded(email: string, ip: string): Promise<void> {
    await Promise.all([this.account.delete(email), this.address.reward(ip, 1)]);
  }
}
