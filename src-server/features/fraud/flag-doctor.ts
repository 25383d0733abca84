import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { BAND_COLUMNS, bandsOf, isContentPrint } from './fingerprint-bands';

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

/** Proofs read at a time by checkProofBands, and how many wrong ones it names at most. */
const BAND_BATCH = 5000;
const BAND_REPORTS = 20;

/**
 * doctor's `proof_bands` check: every proof has the lookup keys of its own print (none while it
 * has no print of the content kind). A proof whose keys are not its print's is never found by
 * the duplicate lookup (the keys are the only way in), and nothing else would notice: a row
 * written by hand, or by a build that cut the print otherwise. Read in pages of the primary key,
 * so a million proofs take one pass.
 */
export async function checkProofBands(db: Db): Promise<string[]> {
  const out: string[] = [];
  let wrong = 0;
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('submissions')
      .select(['_id', 'proof_print', ...BAND_COLUMNS])
      .where('_id', '>', after)
      .orderBy('_id')
      .limit(BAND_BATCH)
      .execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1]._id;
    for (const r of rows) {
      const stored = BAND_COLUMNS.map((c) => r[c]);
      const expected = isContentPrint(r.proof_print) ? bandsOf(r.proof_print) : BAND_COLUMNS.map(() => null);
      if (stored.every((v, b) => v === expected[b])) continue;
      wrong++;
      if (wrong <= BAND_REPORTS)
        out.push(
          `submission ${r._id} has lookup keys ${stored.join(', ')} but its print gives ${expected.join(', ')}: the duplicate lookup cannot find it`,
        );
    }
  }
  if (wrong > BAND_REPORTS)
    out.push(`${wrong - BAND_REPORTS} more submissions have lookup keys that are not their print's`);
  return out;
}
