import { describe, expect, it } from 'vitest';
import { pageItems } from './pagination';

describe('page numbers', () => {
  it.each([
    [1, 1, [1]],
    [3, 5, [1, 2, 3, 4, 5]],
    [1, 6, [1, 2, null, 6]],
    [4, 10, [1, null, 3, 4, 5, null, 10]],
    [10, 10, [1, null, 9, 10]],
    [2, 7, [1, 2, 3, null, 7]],
  ])('on page %i of %i shows %j', (page, pages, items) => {
    expect(pageItems(page, pages)).toEqual(items);
  });
});
