import { sql } from 'kysely';
import type { Db } from '../../db/database';

/**
 * The doctor's check of appeals: an overturned appeal's proof is approved and paid
 * exactly once (one reward ledger row for it); a pending one waits on a rejected proof.
 */
export async function checkAppeals(db: Db): Promise<string[]> {
  const out: string[] = [];
  const rows = await db
    .selectFrom('appeals as a')
    .innerJoin('submissions as s', 's._id', 'a.submission_id')
    .select([
      'a.submission_id',
      'a.status',
      's.status as proof',
      sql<number>`(SELECT count(*) FROM ledger l WHERE l.kind = 'reward' AND l.ref = a.submission_id)`.as(
        'paid',
      ),
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('a.status', '=', 'overturned'), eb('s.status', '<>', 'approved')]),
        eb.and([eb('a.status', '=', 'pending'), eb('s.status', '<>', 'rejected')]),
        eb.and([
          eb('a.status', '=', 'overturned'),
          eb(
            sql<number>`(SELECT count(*) FROM ledger l WHERE l.kind = 'reward' AND l.ref = a.submission_id)`,
            '<>',
            1,
          ),
        ]),
      ]),
    )
    .execute();
  for (const r of rows) {
    if (r.status === 'pending') out.push(`appeal on ${r.submission_id} waits but its proof is ${r.proof}`);
    else
      out.push(
        `overturned appeal on ${r.submission_id}: proof ${r.proof}, paid ${r.paid} time(s) instead of once`,
      );
  }
  return out;
}
