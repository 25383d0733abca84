import type { Db } from '../db/database';

/** The backlog an operator watches, site-wide (every node sees the same numbers). */
export interface SiteNumbers {
  pendingSubmissions: number;
  oldestPendingSubmissionAt: string | null;
  pendingWithdrawals: number;
  pendingWithdrawalsKurus: number;
  oldestPendingWithdrawalAt: string | null;
  openFraudFlags: number;
  users: number;
  pendingMails: number;
  oldestPendingMailAt: string | null;
}

/** A few aggregate reads on indexed columns: cheap enough for every scrape (and cached briefly there). */
export async function readSiteNumbers(db: Db): Promise<SiteNumbers> {
  const [submissions, withdrawals, flags, users, mails] = await Promise.all([
    db
      .selectFrom('submissions')
      .where('status', '=', 'pending')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('withdrawals')
      .where('status', '=', 'pending')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('kurus'),
        eb.fn.min('created_at').as('oldest'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('flags')
      .where('dismissed_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mail_outbox')
      .where('status', '=', 'pending')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    pendingSubmissions: Number(submissions.n),
    oldestPendingSubmissionAt: submissions.oldest ?? null,
    pendingWithdrawals: Number(withdrawals.n),
    pendingWithdrawalsKurus: Number(withdrawals.kurus),
    oldestPendingWithdrawalAt: withdrawals.oldest ?? null,
    openFraudFlags: Number(flags.n),
    users: Number(users.n),
    pendingMails: Number(mails.n),
    oldestPendingMailAt: mails.oldest ?? null,
  };
}
