import { tlToKurus } from '@contract/money';

/** What the statistics need of a submission (GET /api/submissions/user). */
export interface StatsSubmission {
  status: 'pending' | 'approved' | 'rejected';
  createdAt: string;
  /** TL: the reward the approval paid */
  reward: number;
}

export interface PeriodStats {
  /** TL, summed in kuruş so that 0.1 + 0.2 stays 0.3 */
  earnings: number;
  tasks: number;
}

/** Monday 00:00 of the week holding `now`, in the browser's local time (docs/decisions.md, Money). */
export function startOfWeek(now: Date): Date {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const sinceMonday = (start.getDay() + 6) % 7;
  start.setDate(start.getDate() - sinceMonday);
  return start;
}

/** The 1st of the month holding `now`, 00:00 local time. */
export function startOfMonth(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), 1);
}

function toKurus(tl: number): number {
  return tlToKurus(tl) ?? (Number.isFinite(tl) ? Math.round(tl * 100) : 0);
}

/**
 * The approved submissions created on or after `since`, counted, with
 * their rewards summed.
 */
export function periodStats(submissions: readonly StatsSubmission[], since: Date): PeriodStats {
  let kurus = 0;
  let tasks = 0;
  for (const s of submissions) {
    if (s.status !== 'approved') continue;
    const created = Date.parse(s.createdAt);
    if (!Number.isFinite(created) || created < since.getTime()) continue;
    kurus += toKurus(s.reward);
    tasks += 1;
  }
  return { earnings: kurus / 100, tasks };
}

/** This week's and this month's figures, as the statistics card shows them. */
export function profileStats(
  submissions: readonly StatsSubmission[],
  now: Date,
): { week: PeriodStats; month: PeriodStats } {
  return {
    week: periodStats(submissions, startOfWeek(now)),
    month: periodStats(submissions, startOfMonth(now)),
  };
}
