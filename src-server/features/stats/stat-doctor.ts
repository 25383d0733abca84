import type { Db } from '../../db/database';
import { allCounters, recountCounters } from './admin-stats.repository';

/**
 * `doctor`: the dashboard's counters recounted from the rows. Returns one message per counter
 * that differs (metric, hour or all time, kept and recounted values); empty when all agree.
 */
export async function checkStatCounters(db: Db): Promise<string[]> {
  const [kept, recounted] = await Promise.all([allCounters(db), recountCounters(db)]);
  const out: string[] = [];
  for (const key of new Set([...kept.keys(), ...recounted.keys()])) {
    const a = kept.get(key) ?? 0;
    const b = recounted.get(key) ?? 0;
    if (a === b) continue;
    const [metric, bucket] = key.split('|');
    const when =
      bucket === '*'
        ? 'all time'
        : bucket.length === 10
          ? `the day ${bucket} (UTC)`
          : `the hour ${bucket}:00 UTC`;
    out.push(`the dashboard counter "${metric}" for ${when} is ${a} but the rows count ${b}`);
  }
  return out.sort();
}
