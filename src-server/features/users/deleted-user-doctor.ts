import type { Db } from '../../db/database';

/**
 * The doctor's checks of deleted accounts: a deleted user holds no balance, no slot
 * (a record in progress), no pending withdrawal, proof or appeal, no session or second factor and
 * no saved payout account. Deletion refuses or forfeits all of these in its transaction; a row
 * found here was left by something that bypassed it.
 */
export async function checkDeletedUsers(db: Db): Promise<string[]> {
  const out: string[] = [];
  const rich = await db
    .selectFrom('users')
    .select(['_id', 'balance'])
    .where('deleted_at', 'is not', null)
    .where('balance', '<>', 0)
    .execute();
  for (const u of rich) out.push(`deleted user ${u._id} still holds a balance of ${u.balance} kuruş`);
  const deleted = (table: 'user_tasks' | 'withdrawals' | 'submissions' | 'appeals') =>
    db
      .selectFrom(table)
      .innerJoin('users as u', 'u._id', `${table}.user_id`)
      .select(['u._id as user_id'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('u.deleted_at', 'is not', null)
      .groupBy('u._id');
  for (const r of await deleted('user_tasks').where('user_tasks.status', '=', 'in_progress').execute())
    out.push(`deleted user ${r.user_id} still holds ${r.n} started task slot(s)`);
  for (const r of await deleted('withdrawals').where('withdrawals.status', '=', 'pending').execute())
    out.push(`deleted user ${r.user_id} still has ${r.n} pending withdrawal(s)`);
  for (const r of await deleted('submissions').where('submissions.status', '=', 'pending').execute())
    out.push(`deleted user ${r.user_id} still has ${r.n} pending proof(s)`);
  for (const r of await deleted('appeals').where('appeals.status', '=', 'pending').execute())
    out.push(`deleted user ${r.user_id} still has ${r.n} pending appeal(s)`);
  // nothing of a deleted account's sign-ins is kept: its sessions and second factor go with it,
  // and so do its saved payout account and the admins' notes about it
  const kept = (table: 'sessions' | 'two_factor' | 'recovery_codes' | 'payout_accounts' | 'user_notes') =>
    db
      .selectFrom(table)
      .innerJoin('users as u', 'u._id', `${table}.user_id`)
      .select(['u._id as user_id'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('u.deleted_at', 'is not', null)
      .groupBy('u._id')
      .execute();
  for (const table of ['sessions', 'two_factor', 'recovery_codes', 'payout_accounts', 'user_notes'] as const)
    for (const r of await kept(table))
      out.push(`deleted user ${r.user_id} still has ${r.n} row(s) in ${table}`);
  return out;
}
