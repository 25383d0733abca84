import { describe, expect, it } from 'vitest';
import { listRange, pageCount } from './list-range';

describe('listRange', () => {
  it.each([
    [1, 10, 57, { from: 1, to: 10, total: 57 }],
    [2, 10, 57, { from: 11, to: 20, total: 57 }],
    [6, 10, 57, { from: 51, to: 57, total: 57 }],
    [1, 10, 3, { from: 1, to: 3, total: 3 }],
    [1, 10, 10, { from: 1, to: 10, total: 10 }],
  ])('shows page %i of %i a page over %i rows', (page, limit, total, expected) => {
    expect(listRange(page, limit, total)).toEqual(expected);
  });

  it('shows 0–0 for an empty list', () => {
    expect(listRange(1, 10, 0)).toEqual({ from: 0, to: 0, total: 0 });
  });

  it('shows 0–0 for a page past the end (a stale URL after a deletion)', () => {
    expect(listRange(7, 10, 57)).toEqual({ from: 0, to: 0, total: 57 });
  });

  it('treats nonsense as an empty range', () => {
    expect(listRange(0, 10, 5)).toEqual({ from: 0, to: 0, total: 5 });
    expect(listRange(1, 0, 5)).toEqual({ from: 0, to: 0, total: 5 });
    expect(listRange(1, 10, -3)).toEqual({ from: 0, to: 0, total: 0 });
  });
});

describe('pageCount', () => {
  it('rounds up and never says 0', () => {
    expect(pageCount(57, 10)).toBe(6);
    expect(pageCount(60, 10)).toBe(6);
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(1, 10)).toBe(1);
  });
});
