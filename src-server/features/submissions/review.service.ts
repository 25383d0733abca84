import { kurusToTl } from '../../contract/money';
import type { ReviewedSubmissionDto, ReviewRequest } from '../../contract/review';
import { isConstraintViolation } from '../../db/errors';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import { queueEventMail } from '../mail/event-mail';
import { type MoneyReply, runMoneyMove } from '../money/idempotency';
import type { IdempotencyScope } from '../money/idempotency.repository';
import type { Tx } from '../money/ledger';
import { type Payee, payReward } from '../money/payee';
import { addMessage } from '../notifications/inbox.repository';
import { notifyUser } from '../notifications/notifications.service';
import { countCompletion, releaseSlot } from '../tasks/tasks.repository';
import { markUserTaskCompleted } from '../tasks/user-tasks.repository';
import {
  findSubmissionForReview,
  isFlagged,
  reviewedSubmission,
  settleSubmission,
} from './review.repository';

async function toDto(tx: Tx, id: string): Promise<ReviewedSubmissionDto> {
  const r = await reviewedSubmission(tx, id);
  return {
    _id: r._id,
    status: r.status,
    feedback: r.feedback,
    feedbackCode: r.feedback_code,
    rejectionReason: r.rejection_reason,
    reward: kurusToTl(r.reward),
    description: r.description,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    reviewedAt: r.reviewed_at,
    task: { _id: r.task_id, title: r.task_title, reward: kurusToTl(r.task_reward) },
    user: { _id: r.user_id, name: r.user_name },
  };
}

/**
 * Thrown inside the sweep's approval of a proof that must wait for a person: the proof of an
 * admin (no second admin would have looked at it), of an account not active, or with a fraud
 * flag still open on it or its account. The sweep leaves it pending.
 */
export class LeftForAPerson extends Error {}

async function autoApprovable(tx: Tx, submissionId: string, payee: Payee): Promise<boolean> {
  if (payee.role === 'admin' || payee.status !== 'active') return false;
  return !(await isFlagged(tx, submissionId));
}

/**
 * Approves or rejects a pending submission. Approval pays the reward, completes the user's
 * task record and counts the completion, all in one transaction whose first write is the
 * conditional pending -> approved: a second review changes nothing and is a 409.
 */
export async function reviewSubmission(
  deps: Pick<AppDeps, 'db' | 'clock' | 'push' | 'mail'>,
  /** null: the system, approving a proof left pending past the auto-approval days */
  adminId: string | null,
  submissionId: string,
  review: ReviewRequest,
  scope: IdempotencyScope | null,
): Promise<MoneyReply> {
  const { status, feedback, rejectionReason } = review;
  const feedbackCode = review.feedbackCode ?? null;

  let userId: string | null = null;
  const reply = await runMoneyMove(deps.db, scope, async (tx) => {
    const now = nowIso(deps.clock);
    // the status change first, returning what the rest needs: one statement where a read and
    // the change took two; only when it changes nothing is the submission read to say why
    let submission: Awaited<ReturnType<typeof settleSubmission>>;
    try {
      submission = await settleSubmission(
        tx,
        submissionId,
        status,
        { feedback, feedbackCode, rejectionReason, adminId, now },
        true,
      );
    } catch (err) {
      // submissions_paid_once: this user was already paid for this task by another submission
      if (isConstraintViolation(err)) throw fail.conflict('already_reviewed');
      throw err;
    }
    if (!submission) {
      const found = await findSubmissionForReview(tx, submissionId);
      if (!found) throw fail.notFound('submission_not_found');
      // four eyes on money: another admin decides on an admin's own proof
      if (found.user_id === adminId) throw fail.forbidden('own_item');
      throw fail.conflict('already_reviewed');
    }
    userId = submission.user_id;
    if (status === 'approved') {
      // a banned account's proofs may be rejected, never paid (409 user_banned; the approval
      // above rolls back); the payee check is the credit's own condition. The sweep also leaves
      // some proofs to a person (thrown after the credit: the whole transaction rolls back)
      const payee = await payReward(tx, {
        userId: submission.user_id,
        amount: submission.reward,
        ref: submission._id,
        actorId: adminId,
        at: now,
      });
      if (adminId === null && !(await autoApprovable(tx, submissionId, payee))) throw new LeftForAPerson();
      await markUserTaskCompleted(tx, submission.user_task_id, now);
      await countCompletion(tx, submission.task_id, now);
    } else {
      await releaseSlot(tx, submission.task_id, now);
    }
    await recordAudit(tx, {
      actorId: adminId,
      action:
        adminId === null
          ? 'submission.auto_approve'
          : status === 'approved'
            ? 'submission.approve'
            : 'submission.reject',
      targetType: 'submission',
      targetId: submissionId,
      changes: {
        status: ['pending', status],
        user: submission.user_id,
        ...(status === 'approved' && { reward: submission.reward }),
        ...(rejectionReason && { rejectionReason }),
        feedback,
      },
      at: now,
    });
    await addMessage(tx, {
      userId: submission.user_id,
      type: status === 'approved' ? 'isAccepted' : 'isRejected',
      ref: submissionId,
      at: now,
    });
    await queueEventMail(tx, deps.mail, {
      userId: submission.user_id,
      kind: status === 'approved' ? 'submission_approved' : 'submission_rejected',
      amount: submission.reward,
      taskId: submission.task_id,
      reason: status === 'approved' ? null : rejectionReason || feedback || null,
      at: now,
    });
    return { status: 200, data: await toDto(tx, submissionId) };
  });
  // after the commit, and never on a replay: the user hears of the result once
  if (userId && !reply.replayed) {
    notifyUser(deps, userId, status === 'approved' ? 'isAccepted' : 'isRejected');
    deps.mail.wake();
  }
  return reply;
}
