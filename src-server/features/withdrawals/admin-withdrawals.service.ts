import type { Page } from '../../contract/types';
import type { AdminWithdrawalsQuery, WithdrawalDto, WithdrawalRejection } from '../../contract/withdrawals';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import { withFlags } from '../fraud/fraud.service';
import { queueEventMail } from '../mail/event-mail';
import { type MoneyReply, runMoneyMove } from '../money/idempotency';
import type { IdempotencyScope } from '../money/idempotency.repository';
import { credit } from '../money/ledger';
import { payableUser } from '../money/payee';
import { addMessage } from '../notifications/inbox.repository';
import { notifyUser } from '../notifications/notifications.service';
import { pageWithdrawals, settleWithdrawal } from './admin-withdrawals.repository';
import { toWithdrawalDto } from './withdrawals.mapper';
import { findWithdrawal } from './withdrawals.repository';

export async function listWithdrawals(
  deps: Pick<AppDeps, 'db'>,
  query: AdminWithdrawalsQuery,
): Promise<Page<WithdrawalDto>> {
  const { rows, total } = await pageWithdrawals(deps.db, query);
  return {
    items: await withFlags(
      deps,
      rows.map((r) => toWithdrawalDto(r, { admin: true })),
    ),
    total,
    page: query.page,
    limit: query.limit,
    pages: Math.max(1, Math.ceil(total / query.limit)),
  };
}

/** Approving is final: the held amount stays taken (the payment is made outside the app). */
export async function approveWithdrawal(
  deps: Pick<AppDeps, 'db' | 'clock' | 'push' | 'mail'>,
  adminId: string,
  id: string,
  scope: IdempotencyScope | null,
): Promise<MoneyReply> {
  let userId: string | null = null;
  const reply = await runMoneyMove(deps.db, scope, async (tx) => {
    const withdrawal = await findWithdrawal(tx, id);
    if (!withdrawal) throw fail.notFound('withdrawal_not_found');
    // four eyes on money: another admin settles an admin's own withdrawal
    if (withdrawal.user_id === adminId) throw fail.forbidden('own_item');
    userId = withdrawal.user_id;
    const now = nowIso(deps.clock);
    if ((await settleWithdrawal(tx, id, 'approved', { adminId, now, reason: null })) !== 1) {
      throw fail.conflict('already_reviewed');
    }
    // a banned account is not paid out (the approval above rolls back); rejecting stays possible
    await payableUser(tx, withdrawal.user_id);
    await addMessage(tx, { userId: withdrawal.user_id, type: 'acceptedWithdraw', ref: id, at: now });
    await queueEventMail(tx, deps.mail, {
      userId: withdrawal.user_id,
      kind: 'withdrawal_paid',
      amount: withdrawal.amount,
      at: now,
    });
    await recordAudit(tx, {
      actorId: adminId,
      action: 'withdrawal.approve',
      targetType: 'withdrawal',
      targetId: id,
      changes: { status: ['pending', 'approved'], user: withdrawal.user_id, amount: withdrawal.amount },
      at: now,
    });
    return { status: 200, data: toWithdrawalDto((await findWithdrawal(tx, id))!, { admin: true }) };
  });
  // after the commit, and never on a replay
  if (userId && !reply.replayed) {
    notifyUser(deps, userId, 'acceptedWithdraw');
    deps.mail.wake();
  }
  return reply;
}

/** Rejecting stores the reason and gives the held amount back, in the same transaction. */
export async function rejectWithdrawal(
  deps: Pick<AppDeps, 'db' | 'clock' | 'push' | 'mail'>,
  adminId: string,
  id: string,
  { reason }: WithdrawalRejection,
  scope: IdempotencyScope | null,
): Promise<MoneyReply> {
  let userId: string | null = null;
  const reply = await runMoneyMove(deps.db, scope, async (tx) => {
    const withdrawal = await findWithdrawal(tx, id);
    if (!withdrawal) throw fail.notFound('withdrawal_not_found');
    // four eyes on money: another admin settles an admin's own withdrawal
    if (withdrawal.user_id === adminId) throw fail.forbidden('own_item');
    userId = withdrawal.user_id;
    const now = nowIso(deps.clock);
    if ((await settleWithdrawal(tx, id, 'rejected', { adminId, now, reason })) !== 1) {
      throw fail.conflict('already_reviewed');
    }
    const refunded = await credit(tx, {
      userId: withdrawal.user_id,
      amount: withdrawal.amount,
      kind: 'withdrawal_refund',
      ref: id,
      actorId: adminId,
      at: now,
    });
    if (!refunded) throw fail.notFound('user_not_found');
    await recordAudit(tx, {
      actorId: adminId,
      action: 'withdrawal.reject',
      targetType: 'withdrawal',
      targetId: id,
      changes: {
        status: ['pending', 'rejected'],
        user: withdrawal.user_id,
        amount: withdrawal.amount,
        reason,
      },
      at: now,
    });
    await addMessage(tx, {
      userId: withdrawal.user_id,
      type: 'rejectedWithdraw',
      message: reason,
      ref: id,
      at: now,
    });
    await queueEventMail(tx, deps.mail, {
      userId: withdrawal.user_id,
      kind: 'withdrawal_rejected',
      amount: withdrawal.amount,
      reason,
      at: now,
    });
    return { status: 200, data: toWithdrawalDto((await findWithdrawal(tx, id))!, { admin: true }) };
  });
  if (userId && !reply.replayed) {
    notifyUser(deps, userId, 'rejectedWithdraw');
    deps.mail.wake();
  }
  return reply;
}
