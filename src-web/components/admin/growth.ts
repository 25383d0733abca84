export type GrowthTone = 'up' | 'down' | 'flat';

/** Whether a growth percent is a rise, a fall or no change. */
export function growthTone(percent: number): GrowthTone {
  if (!Number.isFinite(percent) || percent === 0) return 'flat';
  return percent > 0 ? 'up' : 'down';
}

const percentFormats = new Map<string, Intl.NumberFormat>();

/**
 * A growth percent as the language writes it, signed except for zero, at most one decimal:
 * "+12.5%" in English, "+%12,5" in Turkish.
 */
export function formatGrowth(percent: number, lang: 'tr' | 'en'): string {
  const locale = lang === 'tr' ? 'tr-TR' : 'en-US';
  let format = percentFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'percent',
      signDisplay: 'exceptZero',
      maximumFractionDigits: 1,
    });
    percentFormats.set(locale, format);
  }
  return format.format(Number.isFinite(percent) ? percent / 100 : 0);
}

const countFormat = new Intl.NumberFormat('tr-TR', { maximumFractionDigits: 0 });

/** A count with tr-TR grouping ("12.345"), like every other number of the app. */
export function formatCount(value: number): string {
  return countFormat.format(Number.isFinite(value) ? value : 0);
}
