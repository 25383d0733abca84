import { RateLimiterMemory } from 'rate-limiter-flexible';
import { fail } from '../../http/app-error';

export interface ThrottleLimits {
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = { perAccount: 5, perAddress: 30, windowSeconds: 15 * 60 };

/** Failed-login counters per account and per client address (429 with Retry-After beyond them). */
export class LoginThrottle {
  private readonly account: RateLimiterMemory;
  private readonly address: RateLimiterMemory;

  constructor(private readonly limits: ThrottleLimits = DEFAULT_LIMITS) {
    this.account = new RateLimiterMemory({ points: limits.perAccount, duration: limits.windowSeconds });
    this.address = new RateLimiterMemory({ points: limits.perAddress, duration: limits.windowSeconds });
  }

  /** Throws a 429 when either counter is used up. */
  async check(email: string, ip: string): Promise<void> {
    const [byAccount, byAddress] = await Promise.all([this.account.get(email), this.address.get(ip)]);
    for (const [res, max] of [
      [byAccount, this.limits.perAccount],
      [byAddress, this.limits.perAddress],
    ] as const) {
      if (res && res.consumedPoints >= max)
        throw fail.throttled(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    }
  }

  async failed(email: string, ip: string): Promise<void> {
    await Promise.all([this.account.penalty(email, 1), this.address.penalty(ip, 1)]);
  }

  async succeeded(email: string): Promise<void> {
    await this.account.delete(email);
  }
}
