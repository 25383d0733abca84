import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { DB } from '../../db/schema';
import { getSettings } from '../settings/settings.service';
import { composeMail, type MailKind, type MailValues } from './mail-texts';
import { enqueueMail } from './outbox.repository';

type Conn = Db | Kysely<DB> | Transaction<DB>;

/** The account a mail goes to, as its row has it. */
export interface Recipient {
  _id: string;
  name: string;
  email: string;
  language: string;
}

/** The site's name as its mails sign (the settings' site name). */
export async function siteName(db: Db): Promise<string> {
  return (await getSettings(db)).site.name;
}

/**
 * Queues a mail to an account, written in its language, inside the caller's transaction (the
 * event's own): the mail exists exactly when the event does.
 */
export async function queueUserMail(
  db: Conn,
  user: Recipient,
  kind: MailKind,
  values: Omit<MailValues, 'name'>,
  at: string,
): Promise<void> {
  const mail = composeMail(kind, user.language, { ...values, name: user.name });
  await enqueueMail(db, {
    kind,
    userId: user._id,
    to: user.email,
    name: user.name,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    at,
  });
}
