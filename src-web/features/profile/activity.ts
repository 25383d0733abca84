import type { UserTaskDto } from '@contract/tasks';
import { type TaskOffer, taskOffer } from '../../lib/task-offer';

export type ActivityType = 'task_completed' | 'task_rejected' | 'task_started';

/** A profile activity, derived from task records. */
export interface Activity {
  id: string;
  type: ActivityType;
  /** the task's title */
  title: string;
  date: string;
  /** TL: the reward of a completed task */
  amount: number | null;
  taskId: string;
  /** what the task offers now (the same offer its page, its card and my tasks show) */
  offer: TaskOffer;
}

function fromRecord(record: UserTaskDto, suspended: boolean): Activity | null {
  const offer = taskOffer(record, { suspended });
  const base = { title: record.task.title, taskId: record.task._id, offer };
  // an expired or closed record is a task once started
  if (record.status !== 'completed') {
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
  if (sub.status === 'approved') {
    return {
      ...base,
      id: `done-${sub._id}`,
      type: 'task_completed',
      date: sub.updatedAt,
      amount: sub.reward,
    };
  }
  if (sub.status === 'rejected') {
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
 * The profile's latest events: approved, rejected and started tasks, newest first, cut to
 * `limit`. Payouts have the withdrawal history of their own and never push a task out of these.
 */
export function recentActivities(
  records: readonly UserTaskDto[],
  limit: number,
  options: { suspended?: boolean } = {},
): Activity[] {
  const events: Activity[] = [];
  for (const r of records) {
    const event = fromRecord(r, options.suspended ?? false);
    if (event) events.push(event);
  }
  return events.sort((a, b) => time(b.date) - time(a.date)).slice(0, limit);
}
