import type { Db } from '../../db/database';
import { auditStart } from './audit.repository';

/** Which audit actions explain a ledger row of each kind (and must have one). */
const REWARD_ACTIONS = ['submission.approve', 'submission.auto_approve', 'appeal.overturn'];

/**
 * The doctor's check of the audit log against the ledger (issue 16), from when the log began:
 * every reward has its approval in the log and every approval its reward; every refund its
 * withdrawal rejection and the other way round; every adjustment its balance change (same user and
 * time: both are written in one transaction with one clock reading) and the other way round; every forfeit its deletion.
 */
export async function checkAuditLedger(db: Db): Promise<string[]> {
  const start = await auditStart(db);
  if (start === null) return [];
  const out: string[] = [];
  const pairs: { kind: string; actions: string[]; what: string }[] = [
    { kind: 'reward', actions: REWARD_ACTIONS, what: 'approval' },
    { kind: 'withdrawal_refund', actions: ['withdrawal.reject'], what: 'withdrawal rejection' },
  ];
  for (const p of pairs) {
    const unlogged = await db
      .selectFrom('ledger as l')
      .select(['l.id', 'l.ref'])
      .where('l.kind', '=', p.kind as 'reward')
      .where('l.created_at', '>=', start)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('audit_log as a')
              .select('a.id')
              .whereRef('a.target_id', '=', 'l.ref')
              .where('a.action', 'in', p.actions),
          ),
        ),
      )
      .execute();
    for (const r of unlogged)
      out.push(`${p.kind} ledger row ${r.id} (${r.ref}) has no ${p.what} in the audit log`);
    const unpaid = await db
      .selectFrom('audit_log as a')
      .select(['a.id', 'a.action', 'a.target_id'])
      .where('a.action', 'in', p.actions)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('ledger as l')
              .select('l.id')
              .whereRef('l.ref', '=', 'a.target_id')
              .where('l.kind', '=', p.kind as 'reward'),
          ),
        ),
      )
      .execute();
    for (const r of unpaid)
      out.push(`audit row ${r.id} (${r.action} ${r.target_id}) has no ${p.kind} in the ledger`);
  }
  const unloggedAdjustments = await db
    .selectFrom('ledger as l')
    .select(['l.id', 'l.user_id'])
    .where('l.kind', '=', 'adjustment')
    .where('l.created_at', '>=', start)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('audit_log as a')
            .select('a.id')
            .where('a.action', '=', 'user.balance')
            .whereRef('a.target_id', '=', 'l.user_id')
            .whereRef('a.at', '=', 'l.created_at'),
        ),
      ),
    )
    .execute();
  for (const r of unloggedAdjustments)
    out.push(`adjustment ledger row ${r.id} of user ${r.user_id} has no balance change in the audit log`);
  const unpaidAdjustments = await db
    .selectFrom('audit_log as a')
    .select(['a.id', 'a.target_id'])
    .where('a.action', '=', 'user.balance')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('ledger as l')
            .select('l.id')
            .where('l.kind', '=', 'adjustment')
            .whereRef('l.user_id', '=', 'a.target_id')
            .whereRef('l.created_at', '=', 'a.at'),
        ),
      ),
    )
    .execute();
  for (const r of unpaidAdjustments)
    out.push(`audit row ${r.id} (balance change of ${r.target_id}) has no adjustment in the ledger`);
  const forfeits = await db
    .selectFrom('ledger as l')
    .select(['l.id', 'l.user_id'])
    .where('l.kind', '=', 'forfeit')
    .where('l.created_at', '>=', start)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('audit_log as a')
            .select('a.id')
            .where('a.action', '=', 'user.delete')
            .whereRef('a.target_id', '=', 'l.user_id'),
        ),
      ),
    )
    .execute();
  for (const r of forfeits)
    out.push(`forfeit ledger row ${r.id} of user ${r.user_id} has no deletion in the audit log`);
  return out;
}
