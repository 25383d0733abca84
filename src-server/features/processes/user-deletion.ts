import { kurusToTl } from '../../contract/money';
import { AppError, fail } from '../../http/app-error';
import { recordAudit } from '../audit/audit.repository';
import { credit, forfeitBalance, type Tx } from '../money/ledger';
import { decideAppeal } from '../submissions/appeals.repository';
import { freeSlot, settleSubmission } from '../submissions/review.repository';
import { endRecords } from '../tasks/task-expiry';
import { settleWithdrawal } from '../withdrawals/admin-withdrawals.repository';
import { heldByUser, userRecordsInProgress } from './user-deletion.repository';

/** The reason and feedback a forfeit writes on what it settles (stored as text, shown to admins). */
export const FORFEIT_REASON = 'Account deleted';

export interface Held {
  /** kuruş (TL in the 409's `held`) */
  balance: number;
  pendingWithdrawals: number;
  pendingSubmissions: number;
  pendingAppeals: number;
}

export interface Forfeited extends Held {
  /** (balance: the kuruş moved out by the forfeit, refunded withdrawals included) */
  /** records in progress ended (slots and comments given back) */
  endedRecords: number;
}

/**
 * Inside the deleting transaction: what the user holds. Without `forfeit`, any money or pending
 * item refuses the deletion (409 user_has_money, with what is held). With it, in this same
 * transaction: pending withdrawals rejected and refunded, pending proofs rejected (their slots
 * freed), pending appeals upheld, and then the whole balance moved out by one `forfeit` ledger
 * row with the admin as actor. Records in progress end either way (slot and comment returned).
 */
export async function settleForDeletion(
  tx: Tx,
  userId: string,
  adminId: string,
  now: string,
  forfeit: boolean,
): Promise<Forfeited> {
  const held = await heldByUser(tx, userId);
  const summary: Held = {
    balance: held.balance,
    pendingWithdrawals: held.withdrawals.length,
    pendingSubmissions: held.submissions.length,
    pendingAppeals: held.appeals.length,
  };
  const holdsSomething =
    summary.balance > 0 ||
    summary.pendingWithdrawals > 0 ||
    summary.pendingSubmissions > 0 ||
    summary.pendingAppeals > 0;
  if (holdsSomething && !forfeit)
    throw new AppError(409, 'user_has_money', undefined, {
      held: { ...summary, balance: kurusToTl(summary.balance) },
    });
  for (const w of held.withdrawals) {
    if ((await settleWithdrawal(tx, w._id, 'rejected', { adminId, now, reason: FORFEIT_REASON })) !== 1) {
      throw fail.conflict('already_reviewed');
    }
    await credit(tx, {
      userId,
      amount: w.amount,
      kind: 'withdrawal_refund',
      ref: w._id,
      actorId: adminId,
      at: now,
    });
    await recordAudit(tx, {
      actorId: adminId,
      action: 'withdrawal.reject',
      targetType: 'withdrawal',
      targetId: w._id,
      changes: { status: ['pending', 'rejected'], user: userId, amount: w.amount, reason: FORFEIT_REASON },
      at: now,
    });
  }
  for (const s of held.submissions) {
    const changed = await settleSubmission(tx, s._id, 'rejected', {
      feedback: FORFEIT_REASON,
      feedbackCode: null,
      rejectionReason: null,
      adminId,
      now,
    });
    if (changed !== 1) throw fail.conflict('already_reviewed');
    await freeSlot(tx, s.task_id, now);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'submission.reject',
      targetType: 'submission',
      targetId: s._id,
      changes: { status: ['pending', 'rejected'], user: userId, feedback: FORFEIT_REASON },
      at: now,
    });
  }
  for (const a of held.appeals) {
    await decideAppeal(tx, a.submission_id, { status: 'upheld', adminId, response: FORFEIT_REASON, now });
    await recordAudit(tx, {
      actorId: adminId,
      action: 'appeal.uphold',
      targetType: 'submission',
      targetId: a.submission_id,
      changes: { appeal: ['pending', 'upheld'], user: userId, response: FORFEIT_REASON },
      at: now,
    });
  }
  const forfeitedBalance = await forfeitBalance(tx, userId, adminId, now);
  const records = await userRecordsInProgress(tx, userId);
  const endedRecords = await endRecords(
    tx,
    records.map((r) => r._id),
    now,
  );
  return { ...summary, balance: forfeitedBalance, endedRecords };
}
