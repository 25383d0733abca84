import type { TimeWindow } from './admin-stats.repository';

const HOUR_MS = 3_600_000;

/** The counters' bucket of an ISO instant: its UTC hour, 'YYYY-MM-DDTHH'. */
export const hourKey = (iso: string): string => iso.slice(0, 13);
const hourStart = (iso: string): string => `${hourKey(iso)}:00:00.000Z`;
const nextHour = (iso: string): string => new Date(Date.parse(hourStart(iso)) + HOUR_MS).toISOString();

/** A window split into whole hours (read from the counters) and partial hours (counted from the rows). */
export interface HourSplit {
  /** Bucket bounds of the whole hours, or null when there are none. */
  hours: { after?: string; from?: string; before?: string } | null;
  /** At most two windows of less than an hour each, at the ends. */
  edges: TimeWindow[];
}

/**
 * Splits a half-open window [from, to) (either end open) so that the whole hours come from the
 * hourly counters and only the partial first and last hour are counted row by row: exact, and
 * at most two hours of rows are read whatever the window's length.
 */
export function splitByHour(w: TimeWindow): HourSplit {
  const { from, to } = w;
  if (from !== undefined && to !== undefined) {
    if (from >= to) return { hours: null, edges: [] };
    if (hourKey(from) === hourKey(to)) return { hours: null, edges: [{ from, to }] };
  }
  const hours: NonNullable<HourSplit['hours']> = {};
  const edges: TimeWindow[] = [];
  if (from !== undefined) {
    if (from === hourStart(from)) hours.from = hourKey(from);
    else {
      hours.after = hourKey(from);
      edges.push({ from, to: nextHour(from) });
    }
  }
  if (to !== undefined) {
    hours.before = hourKey(to);
    if (to !== hourStart(to)) edges.push({ from: hourStart(to), to });
  }
  return { hours, edges };
}
