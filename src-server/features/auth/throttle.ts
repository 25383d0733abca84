import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { fail } from '../../http/app-error';

export interface ThrottleLimits {
  /** Failed sign-ins of one account from one address before a 429: the strict limit. */
  perPair?: number;
  /** Failed sign-ins from one address, whatever the account, before a 429. */
  perAddress?: number;
  /**
   * Failed sign-ins of one account, from anywhere, after which attempts from addresses that
   * have been failing are slowed down. The account's own count never refuses anyone.
   */
  accountSlowdownAfter?: number;
  windowSeconds?: number;
  /** New accounts per client address per hour (each costs a password hash). */
  registrationsPerAddress?: number;
  /** The delay added for each failure past accountSlowdownAfter, and its ceiling. */
  slowdownStepMs?: number;
  slowdownMaxMs?: number;
}

export const DEFAULT_LIMITS: Required<ThrottleLimits> = {
  perPair: 5,
  perAddress: 30,
  accountSlowdownAfter: 20,
  windowSeconds: 15 * 60,
  registrationsPerAddress: 30,
  slowdownStepMs: 250,
  slowdownMaxMs: 3_000,
};

/**
 * The calls LoginThrottle makes of a counter: rate-limiter-flexible's in-memory limiter on one
 * node, DatabaseLimiter (database-limiter.ts) when app nodes share the database.
 */
export interface Limiter {
  /** Adds points; refuses with a RateLimiterRes once the count is past the limit. */
  consume(key: string, points?: number): Promise<RateLimiterRes>;
  /** Adds points, never refusing. */
  penalty(key: string, points?: number): Promise<RateLimiterRes>;
  /** Takes points back. */
  reward(key: string, points?: number): Promise<RateLimiterRes>;
  /** The count while its window lasts, else null. */
  get(key: string): Promise<RateLimiterRes | null>;
  delete(key: string): Promise<boolean>;
}

/** Makes the named counter of `points` per window of `durationSeconds`. */
export type Limiters = (name: string, points: number, durationSeconds: number) => Limiter;

/** One node's counters, in its memory: the default (SQLite, one server). */
export const memoryLimiters: Limiters = (_name, points, duration) =>
  new RateLimiterMemory({ points, duration });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function throttled(res: RateLimiterRes): never {
  throw fail.throttled(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
}

/** One point of `key`, or a 429 when its limit is used up. */
async function consumeOrThrottle(limiter: Limiter, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    throttled(err);
  }
}

/**
 * Failed-sign-in counters that stop guessing without letting anyone lock another person out.
 * The strict limit is per (account, address) pair, plus a per-address limit across accounts
 * (a 429 with Retry-After beyond either): an attacker exhausts only their own addresses. The
 * per-account count is far higher and only slows down attempts coming from addresses that
 * have been failing, so the owner signing in from an address of their own is never refused
 * and never waits. An attempt is counted against its pair and address before its password
 * is checked and given back when it succeeds: counting only after the check let a burst of
 * parallel guesses all slip past.
 */
export class LoginThrottle {
  private readonly limits: Required<ThrottleLimits>;
  private readonly pair: Limiter;
  private readonly address: Limiter;
  private readonly account: Limiter;
  private readonly registrations: Limiter;

  constructor(
    limits: ThrottleLimits = {},
    private readonly wait: (ms: number) => Promise<void> = sleep,
    limiters: Limiters = memoryLimiters,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    const duration = this.limits.windowSeconds;
    this.pair = limiters('login-pair', this.limits.perPair, duration);
    this.address = limiters('login-address', this.limits.perAddress, duration);
    // counted with penalty(), which never refuses: the points only size the slowdown
    this.account = limiters('login-account', Number.MAX_SAFE_INTEGER, duration);
    this.registrations = limiters('registration', this.limits.registrationsPerAddress, 60 * 60);
  }

  /** Counts one registration from an address; a 429 beyond the hourly limit. */
  async registration(ip: string): Promise<void> {
    await consumeOrThrottle(this.registrations, ip);
  }

  /**
   * Counts one attempt against its pair, then, if the pair allows it, against its address (a
   * 429 when either is used up), then waits when the account is under attack and this address
   * has been failing. One after the other, so the attempts that pass the pair's count are the
   * ones the address counts: with counters in a database that many nodes write at once (issue
   * 18), two counts made side by side could each be used up by different attempts and refuse
   * them all. An attempt the pair refuses is not counted against the address: that pair is
   * stopped already, and a spray across accounts passes each pair and is counted.
   */
  async attempt(email: string, ip: string): Promise<void> {
    const addressWasFailing = ((await this.address.get(ip))?.consumedPoints ?? 0) > 0;
    await consumeOrThrottle(this.pair, pairKey(email, ip));
    await consumeOrThrottle(this.address, ip);
    if (!addressWasFailing) return;
    const delay = await this.slowdown(email);
    if (delay > 0) await this.wait(delay);
  }

  /** The delay an attempt on this account from a failing address waits now, in ms. */
  async slowdown(email: string): Promise<number> {
    const failures = (await this.account.get(email))?.consumedPoints ?? 0;
    const over = failures - this.limits.accountSlowdownAfter;
    return over > 0 ? Math.min(this.limits.slowdownMaxMs, over * this.limits.slowdownStepMs) : 0;
  }

  /** A wrong password: one more failure on the account's count. */
  async failed(email: string): Promise<void> {
    await this.account.penalty(email, 1);
  }

  /** An attempt whose password was never checked (the server was busy): it does not count. */
  async refund(email: string, ip: string): Promise<void> {
    await Promise.all([this.pair.reward(pairKey(email, ip), 1), this.address.reward(ip, 1)]);
  }

  /** A right password: the pair starts afresh and the address gets its attempt back. */
  async succeeded(email: string, ip: string): Promise<void> {
    await Promise.all([this.pair.delete(pairKey(email, ip)), this.address.reward(ip, 1)]);
  }
}

function pairKey(email: string, ip: string): string {
  return `${email}\n${ip}`;
}
