import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/database';
import { isPostgres } from '../../db/dialect';
import { newId } from '../../db/ids';
import type { DB, MailOutboxTable } from '../../db/schema';

type Conn = Db | Kysely<DB> | Transaction<DB>;

export type OutboxRow = Selectable<MailOutboxTable>;

export interface NewMail {
  kind: string;
  userId: string | null;
  to: string;
  name: string | null;
  subject: string;
  text: string;
  html: string;
  at: string;
}

/** One mail queued, inside the caller's transaction (the event's own): both commit or neither. */
export async function enqueueMail(db: Conn, m: NewMail): Promise<string> {
  const id = newId();
  await db
    .insertInto('mail_outbox')
    .values({
      _id: id,
      kind: m.kind,
      user_id: m.userId,
      to_address: m.to,
      to_name: m.name,
      subject: m.subject,
      text_body: m.text,
      html_body: m.html,
      next_attempt_at: m.at,
      lease_until: null,
      last_error: null,
      message_id: null,
      created_at: m.at,
      sent_at: null,
    })
    .execute();
  return id;
}

/**
 * Takes up to `limit` mails that are due and not being sent, leasing them until `leaseUntil`
 * and counting the attempt. On PostgreSQL the rows are locked FOR UPDATE SKIP LOCKED while they
 * are leased, so two nodes claiming at once never take the same mail; on SQLite the one writer's
 * transaction does the same.
 */
export async function claimDueMail(
  db: Db,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<OutboxRow[]> {
  return db.transaction().execute(async (tx) => {
    let query = tx
      .selectFrom('mail_outbox')
      .select('_id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .orderBy('_id')
      .limit(limit);
    if (isPostgres(tx)) query = query.forUpdate().skipLocked();
    const ids = (await query.execute()).map((r) => r._id);
    if (ids.length === 0) return [];
    await tx
      .updateTable('mail_outbox')
      .set((eb) => ({ lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('_id', 'in', ids)
      .execute();
    return tx
      .selectFrom('mail_outbox')
      .selectAll()
      .where('_id', 'in', ids)
      .orderBy('next_attempt_at')
      .orderBy('_id')
      .execute();
  });
}

/** Sent: the bodies are emptied (a reset link must not outlive its use in a copy of the database). */
export async function markSent(db: Db, id: string, at: string, messageId: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: 'sent',
      sent_at: at,
      lease_until: null,
      message_id: messageId,
      text_body: '',
      html_body: '',
      last_error: null,
    })
    .where('_id', '=', id)
    .execute();
}

/** Not sent this time: tried again from `nextAt`, or given up (`failed`) after the last attempt. */
export async function markAttemptFailed(
  db: Db,
  id: string,
  error: string,
  next: { at: string } | 'give-up',
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      lease_until: null,
      last_error: error.slice(0, 500),
      ...(next === 'give-up'
        ? { status: 'failed' as const, text_body: '', html_body: '' }
        : { next_attempt_at: next.at }),
    })
    .where('_id', '=', id)
    .execute();
}

/**
 * A single server starting: no other process can be sending, so a lease left by the process that
 * died is void at once (the mail is sent now, not when its lease would have run out).
 */
export async function releaseLeases(db: Db): Promise<number> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ lease_until: null })
    .where('status', '=', 'pending')
    .where('lease_until', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The outbox as an operator reads it: what waits and what was given up lately. Both read
 * through the (status, next_attempt_at) index; sent mails, which pile up, are not counted.
 */
export interface OutboxStatus {
  pending: number;
  /** mails given up after their last attempt, queued in the 7 days before `now` */
  failedLastWeek: number;
  /** when the oldest mail still waiting was queued */
  oldestPendingAt: string | null;
}

export async function outboxStatus(db: Conn, now: Date): Promise<OutboxStatus> {
  const week = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const [pending, failed] = await Promise.all([
    db
      .selectFrom('mail_outbox')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('status', '=', 'pending')
      .executeTakeFirst(),
    db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'failed')
      .where('created_at', '>=', week)
      .executeTakeFirst(),
  ]);
  return {
    pending: Number(pending?.n ?? 0),
    failedLastWeek: Number(failed?.n ?? 0),
    oldestPendingAt: (pending?.oldest as string | null | undefined) ?? null,
  };
}
