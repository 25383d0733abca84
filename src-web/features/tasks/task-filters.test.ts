import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  apiQuery,
  DEFAULT_FILTERS,
  hasAnyFilter,
  readFilters,
  writeFilters,
} from './task-filters';

describe('the task list filters in the URL', () => {
  it('reads a plain URL as the defaults', () => {
    expect(readFilters(new URLSearchParams(''))).toEqual(DEFAULT_FILTERS);
  });

  it('reads known values and drops unknown ones', () => {
    const f = readFilters(
      new URLSearchParams(
        'q=+yorum+&category=review&difficulty=extreme&rewardRange=50%2B&sort=quickest&page=3',
      ),
    );
    expect(f).toEqual({
      q: 'yorum',
      category: 'review',
      difficulty: '',
      rewardRange: '50+',
      sort: 'quickest',
      page: 3,
    });
  });

  it('treats a bad sort or page as the default', () => {
    const f = readFilters(new URLSearchParams('sort=random&page=-2'));
    expect(f.sort).toBe('newest');
    expect(f.page).toBe(1);
    expect(readFilters(new URLSearchParams('page=2.5')).page).toBe(1);
  });

  it('writes only what differs from the defaults, and reads back the same filters', () => {
    expect(writeFilters(DEFAULT_FILTERS).toString()).toBe('');
    const f = {
      ...DEFAULT_FILTERS,
      q: 'anket',
      rewardRange: '10-20' as const,
      sort: 'oldest' as const,
      page: 2,
    };
    const written = writeFilters(f);
    expect(written.toString()).toBe('q=anket&rewardRange=10-20&sort=oldest&page=2');
    expect(readFilters(written)).toEqual(f);
  });

  it('always sends the sort, page and limit to the API', () => {
    expect(apiQuery(DEFAULT_FILTERS, 12)).toBe('sort=newest&page=1&limit=12');
  });

  it('counts the set filters, not the search or the sort', () => {
    expect(activeFilterCount({ ...DEFAULT_FILTERS, q: 'x', sort: 'oldest' })).toBe(0);
    expect(activeFilterCount({ ...DEFAULT_FILTERS, category: 'game', difficulty: 'hard' })).toBe(2);
    expect(hasAnyFilter({ ...DEFAULT_FILTERS, q: 'x' })).toBe(true);
    expect(hasAnyFilter(DEFAULT_FILTERS)).toBe(false);
  });
});
