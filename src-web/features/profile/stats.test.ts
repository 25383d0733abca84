import { describe, expect, it } from 'vitest';
import { periodStats, profileStats, type StatsSubmission, startOfMonth, startOfWeek } from './stats';

// local-time dates: the week starts on the browser's Monday, whatever its time zone
const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);
const sub = (status: StatsSubmission['status'], at: Date, reward: number): StatsSubmission => ({
  status,
  createdAt: at.toISOString(),
  reward,
});

describe('the statistics periods', () => {
  it.each([
    ['a Wednesday', local(2026, 3, 11, 15, 30), local(2026, 3, 9)],
    ['a Monday just after midnight', local(2026, 3, 9, 0, 1), local(2026, 3, 9)],
    ['a Sunday night', local(2026, 3, 15, 23, 59), local(2026, 3, 9)],
    ['a Sunday at the start of a month', local(2026, 3, 1, 12), local(2026, 2, 23)],
  ])('starts the week of %s on Monday 00:00 local time', (_label, now, monday) => {
    expect(startOfWeek(now)).toEqual(monday);
  });

  it('starts the month on the 1st at 00:00 local time', () => {
    expect(startOfMonth(local(2026, 3, 31, 22))).toEqual(local(2026, 3, 1));
  });
});

describe('the period figures', () => {
  const now = local(2026, 3, 11, 12); // Wednesday 11 March 2026
  const list = [
    sub('approved', local(2026, 3, 9, 0, 0), 0.1), // Monday 00:00: this week
    sub('approved', local(2026, 3, 10), 0.2),
    sub('approved', local(2026, 3, 8, 23, 59), 5), // Sunday: last week, this month
    sub('approved', local(2026, 2, 28, 23, 59), 100), // last month
    sub('pending', local(2026, 3, 10), 50),
    sub('rejected', local(2026, 3, 10), 70),
  ];

  it('counts approved submissions created on or after the start of the week and sums their rewards exactly', () => {
    expect(profileStats(list, now).week).toEqual({ earnings: 0.3, tasks: 2 });
  });

  it('counts this month from the 1st, leaving pending and rejected ones out', () => {
    expect(profileStats(list, now).month).toEqual({ earnings: 5.3, tasks: 3 });
  });

  it('gives zeros for no submissions and ignores unreadable dates', () => {
    expect(periodStats([], now)).toEqual({ earnings: 0, tasks: 0 });
    expect(periodStats([{ status: 'approved', createdAt: 'soon', reward: 3 }], now)).toEqual({
      earnings: 0,
      tasks: 0,
    });
  });
});
