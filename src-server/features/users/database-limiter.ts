import { createHash } from 'node:crypto';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../db/database';
import {
  addPoints,
  deleteExpiredPoints,
  deletePoints,
  type RateCount,
  readPoints,
} from './rate-limits.repository';
import type { Limiter, Limiters } from './throttle';

/** How often a node deletes the counts whose window has ended, at most. */
export const RATE_LIMIT_CLEANUP_MS = 60_000;

/**
 * The throttle's counters in the database, for app nodes that share it: a limit is
 * the same whichever node a request reaches. The same calls and replies as the in-memory
 * limiter LoginThrottle uses on one node (consume refuses with a RateLimiterRes past the
 * points; penalty and reward never refuse; get is null once the window has ended). Keys are
 * stored as `name:` and the SHA-256 of the key, so a row has a bounded size (an email of 254
 * characters and an address) and names nobody. Counts whose window has ended are deleted by
 * whichever node writes first after RATE_LIMIT_CLEANUP_MS.
 */
export class DatabaseLimiter implements Limiter {
  constructor(
    private readonly db: Db,
    private readonly name: string,
    private readonly points: number,
    private readonly durationSeconds: number,
    private readonly clock: { now(): number; afterWrite(now: number): Promise<void> },
  ) {}

  private key(key: string): string {
    return `${this.name}:${createHash('sha256').update(key).digest('base64url')}`;
  }

  private result(count: RateCount, now: number, first = false): RateLimiterRes {
    return new RateLimiterRes(
      Math.max(0, this.points - count.points),
      Math.max(0, count.expiresAt - now),
      count.points,
      first,
    );
  }

  private async add(key: string, points: number): Promise<RateLimiterRes> {
    const now = this.clock.now();
    const count = await addPoints(this.db, this.key(key), points, this.durationSeconds * 1000, now);
    await this.clock.afterWrite(now);
    return this.result(count, now, count.points === points);
  }

  async consume(key: string, points = 1): Promise<RateLimiterRes> {
    const res = await this.add(key, points);
    if (res.consumedPoints > this.points) throw res;
    return res;
  }

  penalty(key: string, points = 1): Promise<RateLimiterRes> {
    return this.add(key, points);
  }

  reward(key: string, points = 1): Promise<RateLimiterRes> {
    return this.add(key, -points);
  }

  async get(key: string): Promise<RateLimiterRes | null> {
    const now = this.clock.now();
    const count = await readPoints(this.db, this.key(key), now);
    return count ? this.result(count, now) : null;
  }

  delete(key: string): Promise<boolean> {
    return deletePoints(this.db, this.key(key));
  }
}

/** The limiters of one app over its database; they share the clean-up of ended windows. */
export function databaseLimiters(db: Db, now: () => number = Date.now): Limiters {
  let lastCleanup = Number.NEGATIVE_INFINITY;
  const clock = {
    now,
    async afterWrite(at: number) {
      if (at - lastCleanup < RATE_LIMIT_CLEANUP_MS) return;
      lastCleanup = at;
      await deleteExpiredPoints(db, at);
    },
  };
  return (name, points, durationSeconds) => new DatabaseLimiter(db, name, points, durationSeconds, clock);
}
