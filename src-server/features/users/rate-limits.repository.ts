import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** A count in its window: how many points, and when the window ends (ms since the epoch). */
export interface RateCount {
  points: number;
  expiresAt: number;
}

/**
 * Adds `points` (negative to give some back) to a key's count in one statement, so nodes
 * counting the same key at once each see their own total: a window that has ended starts again
 * from these points for `durationMs`; otherwise the points add up and the window keeps its end.
 * The SET expressions read the row as it was, on both engines.
 */
export async function addPoints(
  db: Db,
  key: string,
  points: number,
  durationMs: number,
  now: number,
): Promise<RateCount> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, points, expires_at: now + durationMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        points: sql<number>`CASE WHEN rate_limits.expires_at <= ${now} THEN excluded.points
          ELSE rate_limits.points + excluded.points END`,
        expires_at: sql<number>`CASE WHEN rate_limits.expires_at <= ${now} THEN excluded.expires_at
          ELSE rate_limits.expires_at END`,
      }),
    )
    .returning(['points', 'expires_at'])
    .executeTakeFirstOrThrow();
  return { points: Number(row.points), expiresAt: Number(row.expires_at) };
}

/** A key's count while its window lasts, else null. */
export async function readPoints(db: Db, key: string, now: number): Promise<RateCount | null> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['points', 'expires_at'])
    .where('key', '=', key)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? { points: Number(row.points), expiresAt: Number(row.expires_at) } : null;
}

/** Forgets a key's count; whether there was one. */
export async function deletePoints(db: Db, key: string): Promise<boolean> {
  const res = await db.deleteFrom('rate_limits').where('key', '=', key).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Deletes the counts whose window has ended (by the expiry index); how many. */
export async function deleteExpiredPoints(db: Db, now: number): Promise<number> {
  const res = await db.deleteFrom('rate_limits').where('expires_at', '<=', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}
