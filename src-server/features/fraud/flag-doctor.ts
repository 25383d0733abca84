import { sql } from 'kysely';
import type { Db } from '../../db/database';

const ITEM_TABLES = { submission: 'submissions', withdrawal: 'withdrawals', user: 'users' } as const;

/**
 * doctor's `flags` check: every flag is about an item that exists, a dismissal is
 * whole (when, who and the note together), and every dismissed flag has its `flag.dismiss` audit
 * row (written in the same transaction, so one missing means the log or the flag was altered),
 * and only duplicate-proof flags carry a similarity.
 */
export async function checkFlags(db: Db): Promise<string[]> {
  const out: string[] = [];
  for (const [type, table] of Object.entries(ITEM_TABLES)) {
    const orphans = await db
      .selectFrom('flags as f')
      .select(['f._id', 'f.item_id'])
      .where('f.item_type', '=', type as keyof typeof ITEM_TABLES)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom(table).select('_id').whereRef('_id', '=', 'f.item_id'))),
      )
      .execute();
    for (const f of orphans) out.push(`flag ${f._id} is about ${type} ${f.item_id}, which does not exist`);
  }
  const partial = await db
    .selectFrom('flags')
    .select('_id')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('dismissed_at', 'is not', null),
          eb.or([eb('dismissed_by', 'is', null), eb('dismiss_note', 'is', null)]),
        ]),
        eb.and([
          eb('dismissed_at', 'is', null),
          eb.or([eb('dismissed_by', 'is not', null), eb('dismiss_note', 'is not', null)]),
        ]),
      ]),
    )
    .execute();
  for (const f of partial) out.push(`flag ${f._id} is half dismissed (when, who and the note go together)`);
  const unaudited = await db
    .selectFrom('flags as f')
    .select('f._id')
    .where('f.dismissed_at', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('audit_log as a')
            .select('a.id')
            .where('a.action', '=', 'flag.dismiss')
            .whereRef('a.target_id', '=', 'f.item_id')
            .where('a.changes', 'like', sql<string>`'%"flag":"' || f._id || '"%'`),
        ),
      ),
    )
    .execute();
  for (const f of unaudited) out.push(`flag ${f._id} was dismissed without its audit row`);
  // only a duplicate proof measures how similar it is (the column's CHECK keeps it within 0-100)
  const misplaced = await db
    .selectFrom('flags')
    .select(['_id', 'kind'])
    .where('similarity', 'is not', null)
    .where('kind', '<>', 'duplicate_proof')
    .execute();
  for (const f of misplaced)
    out.push(`flag ${f._id} (${f.kind}) has a similarity, which only duplicate proofs have`);
  return out;
}
