import type { AdminStatsDto, TodayStatsDto } from '../../contract/admin';
import { kurusToTl } from '../../contract/money';
import { TURKEY_UTC_OFFSET_HOURS, turkeyDay } from '../../contract/tasks';
import type { Db } from '../../db/database';
import type { AppDeps } from '../../deps';
import { countPendingAppeals } from '../submissions/appeals.repository';
import {
  counterBuckets,
  counterHours,
  counterTotal,
  countReviewed,
  countSubmissions,
  countTasks,
  countUsersCreated,
  type StatMetric,
  sumApprovedRewards,
  type TimeWindow,
} from './admin-stats.repository';
import { hourKey, splitByHour } from './hour-window';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

const DAY_MS = 86_400_000;
export const GROWTH_WINDOW_DAYS = 30;

/**
 * The change from the earlier window to the later one in percent, to one decimal;
 * 0 when the earlier window is empty.
 */
export function growthPercent(previous: number, current: number): number {
  if (previous <= 0) return 0;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/** The last 30 days and the 30 before them, ending now. */
export function growthWindows(now: Date): { current: TimeWindow; previous: TimeWindow } {
  const iso = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  return {
    current: { from: iso(GROWTH_WINDOW_DAYS), to: now.toISOString() },
    previous: { from: iso(2 * GROWTH_WINDOW_DAYS), to: iso(GROWTH_WINDOW_DAYS) },
  };
}

/** Midnight of today in Turkey (Europe/Istanbul, UTC+3 all year since 2016), as an ISO instant. */
export function turkeyMidnight(now: Date): string {
  const day = turkeyDay(now);
  return new Date(Date.parse(`${day}T00:00:00Z`) - TURKEY_UTC_OFFSET_HOURS * 3_600_000).toISOString();
}

/** How each windowed metric is counted from the rows, for the partial hours of a window. */
const fromRows: Record<Exclude<StatMetric, 'pending'>, (db: Db, w: TimeWindow) => Promise<number>> = {
  users: countUsersCreated,
  tasks: countTasks,
  submissions: (db, w) => countSubmissions(db, w),
  approved: (db, w) => countReviewed(db, 'approved', w),
  rejected: (db, w) => countReviewed(db, 'rejected', w),
  rewards: sumApprovedRewards,
};

/** A metric over a window: the hourly counters of its whole hours plus its partial hours' rows. */
export async function inWindow(
  db: Db,
  metric: Exclude<StatMetric, 'pending'>,
  w: TimeWindow,
): Promise<number> {
  const split = splitByHour(w);
  const parts = await Promise.all([
    split.hours ? counterHours(db, metric, split.hours) : 0,
    ...split.edges.map((edge) => fromRows[metric](db, edge)),
  ]);
  return parts.reduce((a, b) => a + b, 0);
}

/**
 * A metric's last 30 days, one figure a day (the days end at `now`, the newest last), from the
 * hourly counters: for the dashboard's small trend line, where an hour at the edges counted in
 * the neighbouring day changes nothing a reader sees. The totals beside it are exact.
 */
export async function dailySeries(
  db: Db,
  metric: 'users' | 'tasks' | 'rewards',
  now: Date,
): Promise<number[]> {
  const start = now.getTime() - GROWTH_WINDOW_DAYS * DAY_MS;
  const days = Array<number>(GROWTH_WINDOW_DAYS).fill(0);
  for (const { bucket, n } of await counterBuckets(db, metric, hourKey(new Date(start).toISOString()))) {
    const at = Date.parse(`${bucket}:00:00.000Z`);
    if (Number.isNaN(at)) continue;
    const day = Math.min(GROWTH_WINDOW_DAYS - 1, Math.max(0, Math.floor((at - start) / DAY_MS)));
    days[day] += n;
  }
  return days;
}

/** GET /api/admin/stats. Users and tasks by creation time, earnings by approval time. */
export async function adminStats(deps: Deps): Promise<AdminStatsDto> {
  const { db } = deps;
  const { current, previous } = growthWindows(deps.clock());
  const [totalUsers, totalTasks, pendingSubmissions, totalRewards, pendingAppeals] = await Promise.all([
    counterTotal(db, 'users'),
    counterTotal(db, 'tasks'),
    counterTotal(db, 'pending'),
    counterTotal(db, 'rewards'),
    // few at any time, read from their partial index
    countPendingAppeals(db),
  ]);
  const now = deps.clock();
  const [usersDays, tasksDays, earnedDays] = await Promise.all([
    dailySeries(db, 'users', now),
    dailySeries(db, 'tasks', now),
    dailySeries(db, 'rewards', now),
  ]);
  const [usersNow, usersBefore, tasksNow, tasksBefore, earnedNow, earnedBefore] = await Promise.all([
    inWindow(db, 'users', current),
    inWindow(db, 'users', previous),
    inWindow(db, 'tasks', current),
    inWindow(db, 'tasks', previous),
    inWindow(db, 'rewards', current),
    inWindow(db, 'rewards', previous),
  ]);
  return {
    totalUsers,
    totalTasks,
    pendingSubmissions,
    pendingAppeals,
    totalRewards: kurusToTl(totalRewards),
    userGrowthPercent: growthPercent(usersBefore, usersNow),
    taskGrowthPercent: growthPercent(tasksBefore, tasksNow),
    earningGrowthPercent: growthPercent(earnedBefore, earnedNow),
    userGrowthNew: usersBefore === 0 && usersNow > 0,
    taskGrowthNew: tasksBefore === 0 && tasksNow > 0,
    earningGrowthNew: earnedBefore === 0 && earnedNow > 0,
    trend: {
      users: { current: usersNow, previous: usersBefore, days: usersDays },
      tasks: { current: tasksNow, previous: tasksBefore, days: tasksDays },
      rewards: {
        current: kurusToTl(earnedNow),
        previous: kurusToTl(earnedBefore),
        days: earnedDays.map(kurusToTl),
      },
    },
  };
}

/** GET /api/admin/stats/today: since midnight in Turkey. */
export async function todayStats(deps: Deps): Promise<TodayStatsDto> {
  const today: TimeWindow = { from: turkeyMidnight(deps.clock()) };
  const [todayUsers, todaySubmissions, todayApproved, todayRejected] = await Promise.all([
    inWindow(deps.db, 'users', today),
    inWindow(deps.db, 'submissions', today),
    inWindow(deps.db, 'approved', today),
    inWindow(deps.db, 'rejected', today),
  ]);
  return { todayUsers, todaySubmissions, todayApproved, todayRejected };
}
