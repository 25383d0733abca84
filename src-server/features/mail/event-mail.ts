import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { getSettings } from '../settings/settings.service';
import type { MailService } from './mail-service';
import type { MailKind } from './mail-texts';
import { formatKurus } from './money-format';
import { queueUserMail } from './user-mail';

/** An event of a worker's reviews or payouts that is mailed to them. */
export interface MailEvent {
  userId: string;
  kind: Extract<
    MailKind,
    | 'submission_approved'
    | 'submission_rejected'
    | 'appeal_upheld'
    | 'appeal_overturned'
    | 'withdrawal_paid'
    | 'withdrawal_rejected'
  >;
  /** kuruş */
  amount?: number;
  taskId?: string;
  reason?: string | null;
  at: string;
}

/**
 * Queues the mail of an event in the event's transaction, when mail is set up and the account
 * wants such mails (emailNotifications); the inbox message is written either way by the caller.
 * The caller wakes the outbox job after its commit (MailService.wake).
 */
export async function queueEventMail(tx: Transaction<DB>, mail: MailService, e: MailEvent): Promise<void> {
  if (!mail.configured) return;
  const user = await tx
    .selectFrom('users')
    .select(['_id', 'name', 'email', 'language', 'email_notifications'])
    .where('_id', '=', e.userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user || Number(user.email_notifications) === 0) return;
  const task = e.taskId
    ? await tx.selectFrom('tasks').select('title').where('_id', '=', e.taskId).executeTakeFirst()
    : undefined;
  const site = (await getSettings(tx)).site.name;
  await queueUserMail(
    tx,
    user,
    e.kind,
    {
      site,
      ...(e.amount !== undefined ? { amount: formatKurus(e.amount) } : {}),
      ...(task ? { task: task.title } : {}),
      ...(e.reason ? { reason: e.reason } : {}),
    },
    e.at,
  );
}
