import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { fail } from '../../errors';

export interface ThrottleLimits {
  /** Failed sign-ins of one account from one address before a 429: the strict limit. */
  perPair?: number;
  /** Failed sign-ins from one address, whatever the account, before a 429. */
  perAddress?: number;
  /**
   * Failed sign-ins of one account, from anywhere, after which the account is locked to strangers
   * for the rest of the window: attempts from a device or address that has not signed in to it
   * before get a 429. Its owner's known devices and addresses go on signing in.
   */
  accountLockoutAfter?: number;
  /** Failed sign-ins of one account in a day after which strangers wait for the day's end. */
  accountDailyLockoutAfter?: number;
  /** Failed sign-ins with one device cookie before that device counts as a stranger again. */
  perDevice?: number;
  windowSeconds?: number;
  /** How long an address stays known to an account after it signed in there. */
  knownAddressSeconds?: number;
  /** New accounts per client address per hour (each costs a password hash). */
  registrationsPerAddress?: number;
  /** Mails asked for (password resets, verification links) per client address per hour. */
  mailsPerAddress?: number;
  /** Mails asked for per email address (or account) per hour, whoever asks. */
  mailsPerRecipient?: number;
  /** Wrong one-time link tokens (reset, verification) per client address per window. */
  tokenGuessesPerAddress?: number;
}

export const DEFAULT_LIMITS: Required<ThrottleLimits> = {
  perPair: 5,
  perAddress: 30,
  accountLockoutAfter: 20,
  accountDailyLockoutAfter: 100,
  perDevice: 5,
  windowSeconds: 15 * 60,
  // two weeks: within what a timer of the in-memory counters can hold (about 24.8 days)
  knownAddressSeconds: 14 * 24 * 60 * 60,
  registrationsPerAddress: 30,
  mailsPerAddress: 10,
  mailsPerRecipient: 3,
  tokenGuessesPerAddress: 20,
};

/** Who is signing in: the account's email, the client's address, and what vouches for them. */
export interface LoginAttempt {
  email: string;
  ip: string;
  /**
   * The nonce of a valid device cookie of this account (device-cookie.ts), or null: a device
   * that has signed in to the account before.
   */
  device: string | null;
  /** The caller holds a session of this account already (a password change confirming it). */
  signedIn?: boolean;
}

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
 * Failed-sign-in counters that stop guessing, from one address or from many, without locking an
 * account's owner out. The strict limit is per (account, address) pair, plus a per-address limit
 * across accounts (a 429 with Retry-After beyond either): an attacker exhausts only their own
 * addresses. A botnet sending one guess per address passes both, so the account keeps a count of
 * its own across all addresses: past accountLockoutAfter in the window (or the daily limit) the
 * account is locked to strangers, refused with a 429 before any password is checked. Its owner is
 * not a stranger: a device holding the account's device cookie (from an earlier sign-in), an
 * address that signed in to it recently, or a session of the account (a password change) goes on
 * as before, under the pair and address limits, and a device cookie under a limit of its own so a
 * stolen one buys no more than a few guesses. A refusal, not a wait: sleeping would hold a
 * request, its socket and memory for every guess a botnet sends.
 *
 * Attempts are counted before the password is checked and given back when it is right (or when
 * it was never checked): counting only after the check let a burst of parallel guesses all slip
 * past. So an account's count is its failures plus the attempts under way.
 */
export class LoginThrottle {
  private readonly limits: Required<ThrottleLimits>;
  private readonly pair: Limiter;
  private readonly address: Limiter;
  private readonly account: Limiter;
  private readonly accountDay: Limiter;
  private readonly device: Limiter;
  private readonly known: Limiter;
  private readonly registrations: Limiter;
  private readonly mailAddress: Limiter;
  private readonly mailRecipient: Limiter;
  private readonly tokenGuesses: Limiter;

  constructor(limits: ThrottleLimits = {}, limiters: Limiters = memoryLimiters) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    const duration = this.limits.windowSeconds;
    this.pair = limiters('login-pair', this.limits.perPair, duration);
    this.address = limiters('login-address', this.limits.perAddress, duration);
    this.account = limiters('login-account', this.limits.accountLockoutAfter, duration);
    // counted with penalty(), which never refuses: compared with the daily limit when an attempt comes
    this.accountDay = limiters('login-account-day', Number.MAX_SAFE_INTEGER, 24 * 60 * 60);
    this.device = limiters('login-device', this.limits.perDevice, duration);
    this.known = limiters('login-known', Number.MAX_SAFE_INTEGER, this.limits.knownAddressSeconds);
    this.registrations = limiters('registration', this.limits.registrationsPerAddress, 60 * 60);
    this.mailAddress = limiters('mail-address', this.limits.mailsPerAddress, 60 * 60);
    this.mailRecipient = limiters('mail-recipient', this.limits.mailsPerRecipient, 60 * 60);
    this.tokenGuesses = limiters('token-address', this.limits.tokenGuessesPerAddress, duration);
  }

  /**
   * Counts one use of a mailed link's token from an address (a 429 past the limit), given back when
   * the token was good: what stays counted are the wrong ones, so guessing is slow from any one
   * address (and a 256-bit token is beyond guessing anyway).
   */
  async tokenAttempt(ip: string): Promise<void> {
    await consumeOrThrottle(this.tokenGuesses, ip);
  }

  /** A good token: its attempt is given back. */
  async tokenSucceeded(ip: string): Promise<void> {
    await this.tokenGuesses.reward(ip, 1);
  }

  /**
   * Counts one mail asked for from an address to a recipient (an email, or `user:<id>`), or a 429:
   * whether the account exists or not, so the refusal tells nothing about it, and nobody can
   * flood one mailbox from many addresses.
   */
  async mailRequest(ip: string, recipient: string): Promise<void> {
    await consumeOrThrottle(this.mailAddress, ip);
    await consumeOrThrottle(this.mailRecipient, recipient);
  }

  /** Counts one registration from an address; a 429 beyond the hourly limit. */
  async registration(ip: string): Promise<void> {
    await consumeOrThrottle(this.registrations, ip);
  }

  /**
   * Counts one attempt, or refuses it with a 429: a stranger to a locked account first, before
   * anything is written (a botnet's flood costs three reads a guess), then the pair, then the
   * address, one after the other, so the attempts that pass the pair's count are the ones the
   * address counts: with counters in a database that many nodes write at once, two counts made
   * side by side could each be used up by different attempts and refuse them all. An attempt
   * the pair refuses is not counted against the address: that pair is stopped already, and a
   * spray across accounts passes each pair and is counted.
   */
  async attempt(who: LoginAttempt): Promise<void> {
    const vouched = await this.vouchedBy(who);
    if (vouched === null) {
      const lock = await this.lock(who.email);
      if (lock) throttled(lock);
      // counted before the check, like the pair: parallel guesses cannot all read the same count
      try {
        await this.account.consume(who.email);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        // refused: no password is checked, so the attempt is given back
        await this.account.reward(who.email);
        throttled(err);
      }
    } else {
      await this.account.penalty(who.email);
    }
    try {
      await consumeOrThrottle(this.pair, pairKey(who.email, who.ip));
      await consumeOrThrottle(this.address, who.ip);
    } catch (err) {
      await Promise.all([
        this.account.reward(who.email),
        vouched === 'device' && who.device ? this.device.reward(who.device) : null,
      ]);
      throw err;
    }
  }

  /**
   * What shows the attempt comes from the account's owner, as far as the throttle can tell, or
   * null for a stranger: a session of the account, a device cookie of it that has not been
   * failing (its attempt counted first, so parallel guesses with one cookie are counted too), or
   * an address that signed in to it.
   */
  private async vouchedBy(who: LoginAttempt): Promise<'session' | 'device' | 'address' | null> {
    if (who.signedIn) return 'session';
    if (who.device) {
      try {
        await this.device.consume(who.device);
        return 'device';
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
      }
    }
    return live(await this.known.get(pairKey(who.email, who.ip))) > 0 ? 'address' : null;
  }

  /**
   * The account's count that locks it to strangers now (the one whose window ends last), or null:
   * its failures in the window, or in the day, have reached their limit.
   */
  async lock(email: string): Promise<RateLimiterRes | null> {
    const [window, day] = await Promise.all([this.account.get(email), this.accountDay.get(email)]);
    const locks = [
      live(window) >= this.limits.accountLockoutAfter ? window : null,
      live(day) >= this.limits.accountDailyLockoutAfter ? day : null,
    ].filter((res) => res !== null);
    return locks.length === 0 ? null : locks.reduce((a, b) => (a.msBeforeNext >= b.msBeforeNext ? a : b));
  }

  /** A wrong password: the attempt stays counted, and the day's count of the account grows. */
  async failed(who: LoginAttempt): Promise<void> {
    await this.accountDay.penalty(who.email, 1);
  }

  /** An attempt whose password was never checked (the server was busy): it does not count. */
  async refund(who: LoginAttempt): Promise<void> {
    await Promise.all([
      this.pair.reward(pairKey(who.email, who.ip), 1),
      this.address.reward(who.ip, 1),
      this.account.reward(who.email, 1),
      who.device ? this.device.reward(who.device, 1) : null,
    ]);
  }

  /**
   * A right password: the pair and the device start afresh, the address and the account get the
   * attempt back (the account's other failures stay: the owner signing in ends no lockout), and
   * the address is known to the account from now on.
   */
  async succeeded(who: LoginAttempt): Promise<void> {
    await Promise.all([
      this.pair.delete(pairKey(who.email, who.ip)),
      this.address.reward(who.ip, 1),
      this.account.reward(who.email, 1),
      who.device ? this.device.delete(who.device) : null,
      this.remember(who.email, who.ip),
    ]);
  }

  /**
   * Makes an address known to an account for knownAddressSeconds from now (a sign-in or the
   * registration from it); deleted first so the time starts again.
   */
  async remember(email: string, ip: string): Promise<void> {
    const key = pairKey(email, ip);
    await this.known.delete(key);
    await this.known.penalty(key, 1);
  }
}

/**
 * A count while its window lasts, else 0: the in-memory store forgets an ended window on a timer,
 * which may run late, and meanwhile still answers with the old count.
 */
function live(res: RateLimiterRes | null): number {
  return res && res.msBeforeNext > 0 ? res.consumedPoints : 0;
}

function pairKey(email: string, ip: string): string {
  return `${email}\n${ip}`;
}
