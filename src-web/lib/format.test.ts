import { describe, expect, it } from 'vitest';
import { formatAccountNumber, formatDate, formatDateTime, formatMoney } from './format';

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

  it('writes dates in one form per language, and leaves invalid ones empty', () => {
    expect(formatDate('2026-11-22T10:00:00Z', 'tr')).toBe('22 Kas 2026');
    expect(formatDate('2026-11-22T10:00:00Z', 'en')).toBe('22 Nov 2026');
    expect(formatDateTime('2026-11-22T10:05:00Z', 'tr')).toMatch(/^22 Kas 2026 \d\d:05$/);
    expect(formatDateTime('2026-11-22T10:05:00Z', 'en')).toMatch(/^22 Nov 2026, \d\d:05$/);
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(null)).toBe('');
  });

  it('groups a Turkish IBAN in fours and leaves other account numbers alone', () => {
    expect(formatAccountNumber('TR330006100519786457841326')).toBe('TR33 0006 1005 1978 6457 8413 26');
    expect(formatAccountNumber('tr33 0006 1005 1978 6457 8413 26')).toBe('TR33 0006 1005 1978 6457 8413 26');
    expect(formatAccountNumber('1234567890')).toBe('1234567890');
    expect(formatAccountNumber('******7890')).toBe('******7890');
  });
});
