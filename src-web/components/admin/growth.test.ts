import { describe, expect, it } from 'vitest';
import { formatCount, formatGrowth, growthTone } from './growth';

describe('dashboard growth', () => {
  it('tells a rise from a fall and from no change', () => {
    expect(growthTone(12.5)).toBe('up');
    expect(growthTone(-3)).toBe('down');
    expect(growthTone(0)).toBe('flat');
    expect(growthTone(Number.NaN)).toBe('flat');
  });

  it('writes the percent signed, with one decimal, in each language', () => {
    expect(formatGrowth(12.5, 'en')).toBe('+12.5%');
    expect(formatGrowth(-40, 'en')).toBe('-40%');
    expect(formatGrowth(0, 'en')).toBe('0%');
    expect(formatGrowth(12.5, 'tr')).toBe('+%12,5');
    expect(formatGrowth(100, 'tr')).toBe('+%100');
  });

  it('groups counts the Turkish way', () => {
    expect(formatCount(12345)).toBe('12.345');
    expect(formatCount(7)).toBe('7');
    expect(formatCount(Number.NaN)).toBe('0');
  });
});
