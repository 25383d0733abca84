import { type AppealDecision, isAppealable } from '../../contract/appeals';
import type { SubmissionDto } from '../../contract/submissions';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import { queueEventMail } from '../mail/event-mail';
import { type MoneyReply, runMoneyMove } from '../money/idempotency';
import type { IdempotencyScope } from '../money/idempotency.repository';
import { credit } from '../money/ledger';
import { payableUser } from '../money/payee';
import { addMessage } from '../notifications/inbox.repository';
import { notifyUser } from '../notifications/notifications.service';
import { countCompletion, retakeSlot } from '../tasks/tasks.repository';
import { lockUserTask, markUserTaskCompleted } from '../tasks/user-tasks.repository';
import type { UserRow } from '../users/users.repository';
import { holdLiveUser } from '../users/users.repository';
import { decideAppeal, insertAppeal, overturnSubmission } from './appeals.repository';
import { toSubmissionDto } from './submissions.mapper';
import { findSubmission } from './submissions.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'secret' | 'push' | 'mail'>;

/**
 * POST /api/submissions/{id}/appeal: the worker's own rejection, once, within 7 days, while the
 * task was not restarted (restarting and appealing exclude each other). Someone else's proof is
 * a 404, like one that does not exist.
 */
export async function appealRejection(
  deps: Deps,
  user: UserRow,
  submissionId: string,
  message: string,
): Promise<SubmissionDto> {
  const now = deps.clock();
  await deps.db.transaction().execute(async (trx) => {
    const head = await findSubmission(trx, submissionId);
    if (!head || head.user_id !== user._id) throw fail.notFound('submission_not_found');
    if (!(await holdLiveUser(trx, user._id))) throw fail.unauthorized();
    // a restart of the same record takes this lock too: one of the two decides on the other's result
    await lockUserTask(trx, head.user_task_id);
    const row = (await findSubmission(trx, submissionId))!;
    if (row.appeal_status !== null) throw fail.conflict('appeal_exists');
    if (row.status !== 'rejected' || row.record_status !== 'completed' || Number(row.is_latest) !== 1)
      throw fail.conflict('appeal_not_allowed');
    if (!isAppealable(row, now)) throw fail.conflict('appeal_window_closed');
    await insertAppeal(trx, {
      submission_id: submissionId,
      user_id: user._id,
      message,
      created_at: now.toISOString(),
    });
  });
  return toSubmissionDto((await findSubmission(deps.db, submissionId))!, { secret: deps.secret, now });
}

/**
 * PUT /api/admin/submissions/{id}/appeal: `overturn` approves the rejected proof and pays its
 * reward, in one transaction whose first write is the conditional pending -> overturned of the
 * appeal (a second decision changes nothing and is a 409; an Idempotency-Key replays the first
 * reply); `uphold` ends the appeal. Either way the worker is told. An admin cannot decide the
 * appeal of their own proof.
 */
export async function decideAppealFor(
  deps: Deps,
  adminId: string,
  submissionId: string,
  { decision, response }: AppealDecision,
  scope: IdempotencyScope | null,
): Promise<MoneyReply> {
  let workerId: string | null = null;
  const reply = await runMoneyMove(deps.db, scope, async (tx) => {
    const row = await findSubmission(tx, submissionId);
    if (!row || row.appeal_status === null) throw fail.notFound('submission_not_found');
    if (row.user_id === adminId) throw fail.forbidden('own_item');
    const now = nowIso(deps.clock);
    const status = decision === 'overturn' ? 'overturned' : 'upheld';
    if (!(await decideAppeal(tx, submissionId, { status, adminId, response, now })))
      throw fail.conflict('appeal_not_pending');
    if (decision === 'overturn') {
      if (!(await overturnSubmission(tx, submissionId, { adminId, response, now })))
        throw fail.conflict('already_reviewed');
      // overturning pays the reward: not to a banned account (upholding stays possible)
      await payableUser(tx, row.user_id);
      const paid = await credit(tx, {
        userId: row.user_id,
        amount: row.reward,
        kind: 'reward',
        ref: submissionId,
        actorId: adminId,
        at: now,
      });
      if (!paid) throw fail.notFound('user_not_found');
      await markUserTaskCompleted(tx, row.user_task_id, now);
      await retakeSlot(tx, row.task_id, now);
      await countCompletion(tx, row.task_id, now);
    }
    workerId = row.user_id;
    await recordAudit(tx, {
      actorId: adminId,
      action: decision === 'overturn' ? 'appeal.overturn' : 'appeal.uphold',
      targetType: 'submission',
      targetId: submissionId,
      changes: {
        appeal: ['pending', status],
        user: row.user_id,
        ...(decision === 'overturn' && { status: ['rejected', 'approved'], reward: row.reward }),
        response,
      },
      at: now,
    });
    await addMessage(tx, {
      userId: row.user_id,
      type: decision === 'overturn' ? 'appealOverturned' : 'appealUpheld',
      message: response,
      ref: submissionId,
      at: now,
    });
    await queueEventMail(tx, deps.mail, {
      userId: row.user_id,
      kind: decision === 'overturn' ? 'appeal_overturned' : 'appeal_upheld',
      amount: row.reward,
      taskId: row.task_id,
      reason: response,
      at: now,
    });
    const fresh = (await findSubmission(tx, submissionId))!;
    return { status: 200, data: toSubmissionDto(fresh, { secret: deps.secret, now: deps.clock() }) };
  });
  if (workerId && !reply.replayed) {
    notifyUser(deps, workerId, decision === 'overturn' ? 'isAccepted' : 'isRejected');
    deps.mail.wake();
  }
  return reply;
}
