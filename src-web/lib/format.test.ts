import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney } from './format';

describe('money and date formatting', () => {
  it.each([
    [12.5, '₺12,50'],
    [0, '₺0,00'],
    [1234.56, '₺1.234,56'],
    [0.29, '₺0,29'],
  ])('shows %s lira as %s', (tl, text) => {
    expect(formatMoney(tl)).toBe(text);
  });

  it('shows a missing or broken amount as zero lira', () => {
    expect(formatMoney(undefined)).toBe('₺0,00');
    expect(formatMoney(Number.NaN)).toBe('₺0,00');
  });

  it('writes dates in the tr-TR form and leaves invalid ones empty', () => {
    expect(formatDate('2026-11-22T10:00:00Z')).toBe('22.11.2026');
    expect(formatDateTime('2026-11-22T10:05:00Z')).toMatch(/^22\.11\.2026 \d\d:05$/);
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(null)).toBe('');
  });
});
