import type { UserTaskDto } from '@contract/tasks';

/** What the task page shows a user, derived from their record of the task. */
export type TaskPageState =
  | 'available'
  | 'in_progress'
  | 'expired'
  | 'closed'
  | 'completed'
  | 'approved'
  | 'rejected';

/**
 * No record: available. A record ended because its task was deleted or closed: closed. A record past its time (by the server, or by this page's clock):
 * expired. A record in progress (also after a restart, while the old rejected
 * submission is still the latest): in_progress. Otherwise the latest submission decides:
 * approved, rejected, or completed (awaiting review) for a pending one or none.
 */
export function taskPageState(record: UserTaskDto | null | undefined, now = Date.now()): TaskPageState {
  if (!record) return 'available';
  if (record.status === 'expired') return record.endReason === 'task_closed' ? 'closed' : 'expired';
  // the countdown reached zero on this page: expired, as the server will say
  if (record.status === 'in_progress' && record.expiresAt && Date.parse(record.expiresAt) <= now)
    return 'expired';
  if (record.status === 'in_progress') return 'in_progress';
  const review = record.submission?.status;
  if (review === 'approved') return 'approved';
  if (review === 'rejected') return 'rejected';
  return 'completed';
}
