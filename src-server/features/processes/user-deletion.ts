import { randomBytes } from 'node:crypto';
import { kurusToTl } from '../../contract/money';
import { nowIso } from '../../db/ids';
import { lockForTransaction } from '../../db/locks';
import type { AppDeps } from '../../deps';
import { AppError, fail } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import { credit, forfeitBalance, type Tx } from '../money/ledger';
import { decideAppeal } from '../submissions/appeals.repository';
import { settleSubmission } from '../submissions/review.repository';
import { endRecords } from '../tasks/task-expiry';
import { releaseSlot } from '../tasks/tasks.repository';
import { countActiveAdmins } from '../users/admin-users.repository';
import { isActiveAdmin, requireUserRow } from '../users/admin-users.service';
import { removeProfilePhoto } from '../users/profile-photo';
import { deleteSessionsOf } from '../users/sessions.repository';
import { deleteTwoFactor } from '../users/two-factor.repository';
import { deleteNotesOf } from '../users/user-notes.repository';
import { findUserById, lockUserForDeletion, updateUser } from '../users/users.repository';
import { settleWithdrawal } from '../withdrawals/admin-withdrawals.repository';
import { forgetPayoutAccount } from '../withdrawals/payout-accounts.repository';
import { heldByUser, lockHeldItems, userRecordsInProgress } from './user-deletion.repository';

export const DELETED_USER_NAME = 'Deleted user';
export const DELETED_BAN_REASON = 'This account was deleted.';

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
    const settled = await settleSubmission(tx, s._id, 'rejected', {
      feedback: FORFEIT_REASON,
      feedbackCode: null,
      rejectionReason: null,
      adminId,
      now,
    });
    if (!settled) throw fail.conflict('already_reviewed');
    await releaseSlot(tx, s.task_id, now);
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

type Deps = Pick<AppDeps, 'db' | 'clock' | 'work' | 'files'>;

/**
 * DELETE /api/admin/users/{id}: the account is anonymised, not removed, so its ledger,
 * submissions and withdrawals stay whole. It must not leave money or slots behind: while the
 * user holds a balance or a pending withdrawal, proof or appeal the deletion is refused (409
 * user_has_money) unless the admin confirms the forfeit (settleForDeletion above), all in one
 * transaction. Its token stops working at once (deleted accounts are never found), and its
 * stored photo is removed after the commit.
 */
export async function deleteUserByAdmin(
  deps: Deps,
  adminId: string,
  id: string,
  options: { forfeit: boolean },
): Promise<{ _id: string; deleted: true; forfeited: Forfeited }> {
  await requireUserRow(deps, id);
  const unusable = `!deleted:${randomBytes(32).toString('hex')}`;
  // the photo as the row holds it under the lock: a profile save just before may have replaced it
  let photo: string | null = null;
  const forfeited = await deps.db.transaction().execute(async (tx) => {
    // first what the user holds, then the user's row: what the user creates meanwhile is either
    // seen here or refused (holdLiveUser), and a payout or review of a held item (which locks the
    // item, then the user) waits for this or this for it, never both
    await lockHeldItems(tx, id);
    await lockUserForDeletion(tx, id);
    const current = await findUserById(tx, id);
    if (!current) throw fail.notFound('user_not_found');
    photo = current.profile_image;
    // the last active admin: counted under the 'admins' lock, taken after the user's
    // row as in the edit, and only for an admin (a user's deletion waits for no one else's)
    if (isActiveAdmin(current)) {
      await lockForTransaction(tx, 'admins');
      if ((await countActiveAdmins(tx, id)) === 0) throw fail.conflict('last_admin');
    }
    const now = nowIso(deps.clock);
    const settled = await settleForDeletion(tx, id, adminId, now, options.forfeit);
    await recordAudit(tx, {
      actorId: adminId,
      action: 'user.delete',
      targetType: 'user',
      targetId: id,
      changes: { forfeit: options.forfeit, ...settled },
      at: now,
    });
    await updateUser(tx, id, {
      name: DELETED_USER_NAME,
      email: `deleted-${id}@deleted.invalid`,
      password_hash: unusable,
      role: 'user',
      status: 'banned',
      ban_reason: DELETED_BAN_REASON,
      phone: null,
      address: null,
      bio: null,
      profile_image: null,
      one_signal_id: null,
      device_id: null,
      register_ip: null,
      updated_at: now,
      deleted_at: now,
    });
    // nothing of the account's sign-ins is kept: its sessions and second factor go with it
    await deleteSessionsOf(tx, id);
    await deleteTwoFactor(tx, id);
    // nor where it was paid: the withdrawals keep their own copy for the books
    await forgetPayoutAccount(tx, id);
    // admins' notes about the person go too: they are personal data about someone who is gone,
    // and the audit log keeps that notes were written (and by whom)
    await deleteNotesOf(tx, id);
    return settled;
  });
  await removeProfilePhoto(deps, photo);
  return { _id: id, deleted: true, forfeited: { ...forfeited, balance: kurusToTl(forfeited.balance) } };
}
