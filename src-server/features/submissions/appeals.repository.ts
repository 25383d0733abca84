import type { Db } from '../../db/database';
import type { Tx } from '../money/ledger';

type Conn = Db | Tx;

export function findAppeal(db: Conn, submissionId: string) {
  return db.selectFrom('appeals').selectAll().where('submission_id', '=', submissionId).executeTakeFirst();
}

export async function insertAppeal(
  db: Conn,
  row: { submission_id: string; user_id: string; message: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('appeals')
    .values({ ...row, status: 'pending', decided_at: null, decided_by: null, response: null })
    .execute();
}

/** pending -> upheld|overturned in one conditional statement; false when it was not pending. */
export async function decideAppeal(
  db: Conn,
  submissionId: string,
  decision: { status: 'upheld' | 'overturned'; adminId: string; response: string; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('appeals')
    .set({
      status: decision.status,
      decided_at: decision.now,
      decided_by: decision.adminId,
      response: decision.response,
    })
    .where('submission_id', '=', submissionId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An overturned rejection: rejected -> approved, decided by this admin now. False when not rejected. */
export async function overturnSubmission(
  db: Conn,
  submissionId: string,
  change: { adminId: string; response: string; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('submissions')
    .set({
      status: 'approved',
      feedback: change.response,
      feedback_code: null,
      rejection_reason: null,
      reviewed_by: change.adminId,
      reviewed_at: change.now,
      updated_at: change.now,
    })
    .where('_id', '=', submissionId)
    .where('status', '=', 'rejected')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many appeals wait for a decision (the dashboard). */
export async function countPendingAppeals(db: Conn): Promise<number> {
  const row = await db
    .selectFrom('appeals')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
