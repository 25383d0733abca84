import { describe, expect, it } from 'vitest';
import { pageWindow } from './paging';

/** The page the plain newest-first OFFSET gives, for comparison. */
function plain(total: number, offset: number, limit: number): number[] {
  const desc = Array.from({ length: total }, (_, i) => total - 1 - i);
  return desc.slice(offset, offset + limit);
}

function viaWindow(total: number, offset: number, limit: number): number[] {
  const w = pageWindow(total, offset, limit);
  if (!w) return [];
  const asc = Array.from({ length: total }, (_, i) => i);
  const slice =
    w.direction === 'desc'
      ? [...asc].reverse().slice(w.offset, w.offset + w.limit)
      : asc.slice(w.offset, w.offset + w.limit);
  return slice.sort((a, b) => b - a);
}

describe('pageWindow', () => {
  it('gives the same rows as a newest-first OFFSET, for every page of small lists', () => {
    for (const total of [0, 1, 2, 5, 19, 20, 21, 41, 100])
      for (const limit of [1, 3, 10, 20])
        for (let offset = 0; offset <= total + limit; offset += limit)
          expect(viaWindow(total, offset, limit), `${total}/${offset}/${limit}`).toEqual(
            plain(total, offset, limit),
          );
  });

  it('reads deep pages from the oldest end', () => {
    expect(pageWindow(1_000_000, 900_000, 20)).toEqual({ direction: 'asc', offset: 99_980, limit: 20 });
    expect(pageWindow(1_000_000, 0, 20)).toEqual({ direction: 'desc', offset: 0, limit: 20 });
    expect(pageWindow(10, 10, 20)).toBeNull();
  });
});
