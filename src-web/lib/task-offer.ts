import type { UserTaskDto } from '@contract/tasks';

/**
 * Where a worker stands with one task, in one word. Every screen that shows a task to its
 * worker (the task page, the list's card, my tasks, the profile) reads it from here, so
 * no two screens can disagree about a state or about what it lets the worker do.
 */
export type OfferState =
  | 'available'
  | 'in_progress'
  | 'waiting'
  | 'approved'
  | 'rejected'
  | 'appealed'
  | 'expired'
  | 'closed'
  | 'suspended';

/** What the worker may do next: start, finish (send the proof), restart, or nothing now. */
export type OfferAction = 'start' | 'finish' | 'restart' | 'none';

export interface TaskOffer {
  state: OfferState;
  action: OfferAction;
  /** a rejection the worker may still appeal (offered beside the restart) */
  appealable: boolean;
}

type Record_ = Pick<UserTaskDto, 'status' | 'endReason' | 'expiresAt' | 'submission'>;

/** The record's own state, before the account's standing is taken into account. */
function recordState(record: Record_ | null | undefined, now: number): OfferState {
  if (!record) return 'available';
  if (record.status === 'expired') return record.endReason === 'task_closed' ? 'closed' : 'expired';
  // the countdown reached zero on this screen: expired, as the server will say
  if (record.status === 'in_progress' && record.expiresAt && Date.parse(record.expiresAt) <= now)
    return 'expired';
  // an open record is in progress even when its previous proof was rejected (a restart)
  if (record.status === 'in_progress') return 'in_progress';
  const sub = record.submission;
  if (sub?.status === 'approved') return 'approved';
  if (sub?.status === 'rejected') return sub.appeal === 'pending' ? 'appealed' : 'rejected';
  return 'waiting';
}

const ACTIONS: Record<OfferState, OfferAction> = {
  available: 'start',
  in_progress: 'finish',
  waiting: 'none',
  approved: 'none',
  rejected: 'restart',
  // an appeal and a restart exclude each other: nothing to do until an admin decides
  appealed: 'none',
  expired: 'start',
  closed: 'none',
  suspended: 'none',
};

/**
 * The one offer of a task to its worker. A suspended account may read but not act: any state
 * that would offer an action reads "suspended" instead (the screen then shows why and whom to
 * contact), while states that wait on someone else keep their word.
 */
export function taskOffer(
  record: Record_ | null | undefined,
  options: { suspended?: boolean; now?: number } = {},
): TaskOffer {
  const own = recordState(record, options.now ?? Date.now());
  const state = options.suspended && ACTIONS[own] !== 'none' ? 'suspended' : own;
  return {
    state,
    action: ACTIONS[state],
    appealable: state === 'rejected' && record?.submission?.appealable === true,
  };
}

/** The sections of "my tasks", in order; each state belongs to one (available to none). */
export const MY_TASK_SECTIONS = [
  'in_progress',
  'waiting',
  'appealed',
  'rejected',
  'approved',
  'ended',
] as const;
export type MyTaskSection = (typeof MY_TASK_SECTIONS)[number];

/** The "my tasks" section of a record's state; a suspended account's records stay where they were. */
export function sectionOf(record: Record_, now = Date.now()): MyTaskSection {
  const state = recordState(record, now);
  if (state === 'expired' || state === 'closed' || state === 'available' || state === 'suspended')
    return 'ended';
  return state;
}

/** How many records are in each section. */
export function sectionCounts(records: readonly Record_[], now = Date.now()): Record<MyTaskSection, number> {
  const counts = Object.fromEntries(MY_TASK_SECTIONS.map((s) => [s, 0])) as Record<MyTaskSection, number>;
  for (const r of records) counts[sectionOf(r, now)] += 1;
  return counts;
}
