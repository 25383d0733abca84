import type { AppDeps } from '../../deps';
import { addMessage } from '../notifications/inbox.repository';
import type { Conn } from './tasks.repository';
import { releaseSlot } from './tasks.repository';
import { dueRecords, endExpired, recordsInProgress, returnComment } from './user-tasks.repository';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type EndReason = 'time' | 'task_closed' | 'user_deleted';

/** How many records one sweep ends at most (the next pass takes the rest). */
export const SWEEP_BATCH = 500;
/** How often the server sweeps. */
export const SWEEP_INTERVAL_MS = 30_000;
/**
 * How long after its time a record is ended. A proof counts from when its request began, and an
 * upload may take the whole request timeout (120 s) to arrive and a moment to be checked: the
 * record waits for it. Reads show it expired from its time on.
 */
export const SWEEP_GRACE_MS = 180_000;

/**
 * Ends the records in progress whose time ran out SWEEP_GRACE_MS ago (of one task, or all), each in its own
 * transaction: a conditional update from in_progress (still past its time) to expired, then its
 * slot back to the task and its comment back to the pool. The update decides: a proof that got
 * there first (the record completed) or another sweep leaves nothing to return, so each slot
 * and comment comes back exactly once. Returns how many records it ended.
 */
export async function expireDue(
  db: Conn,
  now: string,
  taskId?: string,
  limit = SWEEP_BATCH,
): Promise<number> {
  const cutoff = new Date(Date.parse(now) - SWEEP_GRACE_MS).toISOString();
  let ended = 0;
  for (const due of await dueRecords(db, cutoff, limit, taskId)) {
    if (await db.transaction().execute((trx) => endRecord(trx, due._id, now, cutoff, 'time'))) ended++;
  }
  return ended;
}

/** One record ended (if still in progress, and past `cutoff` when given), its slot and comment given back. */
async function endRecord(
  trx: Conn,
  id: string,
  now: string,
  cutoff: string | null,
  reason: EndReason,
): Promise<boolean> {
  const record = await endExpired(trx, id, now, cutoff, reason);
  if (!record) return false;
  await releaseSlot(trx, record.task_id);
  if (record.automatic_comment !== null)
    await returnComment(trx, record.task_id, record.user_id, record.automatic_comment);
  return true;
}

/**
 * A task deleted or closed (no longer active): its records in progress end at once, inside the
 * transaction that closes it, their slots and comments given back. Proofs already sent stay
 * and can be reviewed. Returns how many records it ended.
 */
export async function endRecordsOfTask(trx: Conn, taskId: string, now: string): Promise<number> {
  let ended = 0;
  for (const r of await recordsInProgress(trx, taskId)) {
    if (await endRecord(trx, r._id, now, null, 'task_closed')) {
      ended++;
      // the worker is told in the inbox (no push: the spec has no push for it)
      await addMessage(trx, { userId: r.user_id, type: 'taskClosed', ref: taskId, at: now });
    }
  }
  return ended;
}

/**
 * A user deleted: their records in progress end inside the deleting transaction, their slots
 * and comments given back (the ids come from the caller, who read them in the same transaction).
 */
export async function endRecords(trx: Conn, ids: readonly string[], now: string): Promise<number> {
  let ended = 0;
  for (const id of ids) if (await endRecord(trx, id, now, null, 'user_deleted')) ended++;
  return ended;
}

/** One pass of the expiry sweep: batch after batch while a batch comes back full. */
export async function expiryPass(deps: Deps, log: (line: string) => void): Promise<{ expired: number }> {
  let ended: number;
  let expired = 0;
  do {
    ended = await expireDue(deps.db, deps.clock().toISOString());
    expired += ended;
    if (ended > 0) log(`expired ${ended} started task${ended === 1 ? '' : 's'} past their time limit`);
  } while (ended === SWEEP_BATCH);
  return { expired };
}
