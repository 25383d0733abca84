import type { UserTaskDto } from '../../../src-server/contract/tasks';

/** What the task page shows a user (SPEC.md section 4), derived from their record of the task. */
export type TaskPageState = 'available' | 'in_progress' | 'completed' | 'approved' | 'rejected';

/**
 * No record: available. A record in progress (also after a restart, while the old rejected
 * submission is still the latest): in_progress. Otherwise the latest submission decides:
 * approved, rejected, or completed (awaiting review) for a pending one or none.
 */
export function taskPageState(record: UserTaskDto | null | undefined): TaskPageState {
  if (!record) return 'available';
  if (record.status === 'in_progress') return 'in_progress';
  const review = record.submission?.status;
  if (review === 'approved') return 'approved';
  if (review === 'rejected') return 'rejected';
  return 'completed';
}
