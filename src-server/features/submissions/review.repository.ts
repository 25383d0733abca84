import type { Kysely } from 'kysely';
import type { FeedbackCode, RejectionReason } from '../../contract/constants';
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import type { DB } from '../../db/schema';
import { hasOpenFlag } from '../fraud/fraud.repository';
import type { Tx } from '../money/ledger';
import { submissionHeadline } from './submissions.repository';

/** The few columns a verdict needs, read inside its transaction. */
export function findSubmissionForReview(tx: Tx, id: string) {
  return tx
    .selectFrom('submissions')
    .select(['_id', 'status', 'user_id', 'task_id', 'user_task_id', 'reward'])
    .where('_id', '=', id)
    .executeTakeFirst();
}

export interface Verdict {
  feedback: string;
  feedbackCode: FeedbackCode | null;
  rejectionReason: RejectionReason | null;
  /** null: the system (auto-approval) */
  adminId: string | null;
  now: string;
}

// Each write of a verdict compiled once per engine: Kysely built every statement of an approval
// again on each request, a share of its CPU larger than some of the statements' own.
const settle = prepared(
  (
    tx: Kysely<DB>,
    id: string,
    status: 'approved' | 'rejected',
    feedback: string,
    feedbackCode: FeedbackCode | null,
    rejectionReason: RejectionReason | null,
    adminId: string | null,
    autoApproved: number,
    now: string,
    notOf: string,
  ) =>
    tx
      .updateTable('submissions')
      .set({
        status,
        feedback,
        feedback_code: feedbackCode,
        rejection_reason: rejectionReason,
        reviewed_by: adminId,
        auto_approved: autoApproved,
        reviewed_at: now,
        updated_at: now,
      })
      .where('_id', '=', id)
      .where('status', '=', 'pending')
      .where('user_id', '<>', notOf)
      .returning(['_id', 'user_id', 'task_id', 'user_task_id', 'reward']),
);

/**
 * pending -> approved|rejected in one conditional statement that also returns what the rest of
 * the verdict needs; undefined when it changed nothing (not found, not pending, or, with
 * `fourEyes`, the deciding admin's own proof: findSubmissionForReview tells which).
 */
export async function settleSubmission(
  tx: Tx,
  id: string,
  status: 'approved' | 'rejected',
  v: Verdict,
  fourEyes = false,
) {
  const [row] = await settle(
    tx,
    id,
    status,
    v.feedback,
    v.feedbackCode,
    v.rejectionReason,
    v.adminId,
    v.adminId === null ? 1 : 0,
    v.now,
    // no user has the id '': the system's verdicts, and a deletion's, exclude nobody
    fourEyes && v.adminId !== null ? v.adminId : '',
  );
  return row;
}

// the task's and the user's columns as subqueries on their keys, not joins: SQLite 3.54 reads
// each column of a statement of several tables for about half a microsecond (docs/decisions.md,
// "Joins on the hot paths"); a submission's task and user always exist (foreign keys)
const reviewed = prepared((tx: Kysely<DB>, id: string) =>
  tx
    .selectFrom('submissions as s')
    .select((eb) => [
      's._id',
      's.status',
      's.feedback',
      's.feedback_code',
      's.rejection_reason',
      's.reward',
      's.description',
      's.created_at',
      's.updated_at',
      's.reviewed_at',
      's.task_id',
      's.user_id',
      ...submissionHeadline(eb),
    ])
    .where('s._id', '=', id),
);

/** The submission with its task and user, for the reply. */
export async function reviewedSubmission(tx: Tx, id: string) {
  const [row] = await reviewed(tx, id);
  if (!row) throw new Error(`reviewed submission ${id} not found`);
  return row;
}

/** Whether the proof, or its account, has a fraud flag not dismissed. */
export async function isFlagged(tx: Tx, submissionId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('submissions as s')
    .select('s._id')
    .where('s._id', '=', submissionId)
    .where(hasOpenFlag('s._id', 's.user_id'))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Pending proofs sent at or before `cutoff`, oldest first, that the system may approve: not an
 * admin's, of an active account, without an open fraud flag on the proof or its account (the
 * auto-approval's question; the others wait for a person and must not fill its batches).
 */
export function pendingOlderThan(db: Tx | Db, cutoff: string, limit: number) {
  return db
    .selectFrom('submissions as s')
    .innerJoin('users as u', 'u._id', 's.user_id')
    .select('s._id')
    .where('s.status', '=', 'pending')
    .where('s.created_at', '<=', cutoff)
    .where('u.role', '<>', 'admin')
    .where('u.status', '=', 'active')
    .where((eb) => eb.not(hasOpenFlag('s._id', 's.user_id')))
    .orderBy('s.created_at')
    .limit(limit)
    .execute();
}
