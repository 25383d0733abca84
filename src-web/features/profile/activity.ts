import type { UserTaskDto } from '@contract/tasks';

/** Where a user task record stands (task page state). */
export type TaskState = 'in_progress' | 'expired' | 'waiting' | 'approved' | 'rejected';

/**
 * An open record is in progress whatever its last submission said (a restarted rejection);
 * a finished one follows its latest submission, and a proof without a verdict is waiting.
 */
export function taskState(record: Pick<UserTaskDto, 'status' | 'submission'>): TaskState {
  if (record.status === 'in_progress') return 'in_progress';
  if (record.status === 'expired') return 'expired';
  if (record.submission?.status === 'approved') return 'approved';
  if (record.submission?.status === 'rejected') return 'rejected';
  return 'waiting';
}

/** The three status boxes of the profile: in progress, waiting approval, rejected. */
export function statusCounts(records: readonly Pick<UserTaskDto, 'status' | 'submission'>[]): {
  inProgress: number;
  waiting: number;
  rejected: number;
} {
  const counts = { inProgress: 0, waiting: 0, rejected: 0 };
  for (const r of records) {
    const state = taskState(r);
    if (state === 'in_progress') counts.inProgress += 1;
    else if (state === 'waiting') counts.waiting += 1;
    else if (state === 'rejected') counts.rejected += 1;
  }
  return counts;
}

export type ActivityType = 'task_completed' | 'task_rejected' | 'task_started';

/** A profile activity, derived from task records and withdrawals. */
export interface Activity {
  id: string;
  type: ActivityType;
  /** the task's title; empty for a payout */
  title: string;
  date: string;
  /** TL: the reward of a completed task */
  amount: number | null;
  taskId: string;
}

function fromRecord(record: UserTaskDto): Activity | null {
  const state = taskState(record);
  const base = { title: record.task.title, taskId: record.task._id };
  // an expired record is a task once started (its time ran out)
  if (state === 'in_progress' || state === 'expired') {
    return {
      ...base,
      id: `started-${record._id}`,
      type: 'task_started',
      date: record.startedAt,
      amount: null,
    };
  }
  const sub = record.submission;
  if (!sub) return null;
  if (state === 'approved') {
    return {
      ...base,
      id: `done-${sub._id}`,
      type: 'task_completed',
      date: sub.updatedAt,
      amount: sub.reward,
    };
  }
  if (state === 'rejected') {
    return { ...base, id: `rejected-${sub._id}`, type: 'task_rejected', date: sub.updatedAt, amount: null };
  }
  // a proof waiting for review is not an event of its own
  return null;
}

function time(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * The profile's latest events: approved, rejected and in-progress tasks, newest
 * first, cut to `limit`. Payouts have the withdrawal history of their own and never push a
 * task out of these.
 */
export function recentActivities(records: readonly UserTaskDto[], limit: number): Activity[] {
  const events: Activity[] = [];
  for (const r of records) {
    const event = fromRecord(r);
    if (event) events.push(event);
  }
  return events.sort((a, b) => time(b.date) - time(a.date)).slice(0, limit);
}
