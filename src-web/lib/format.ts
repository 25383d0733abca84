import { currentLanguage, type Language } from './i18n';

const money = new Intl.NumberFormat('tr-TR', {
  style: 'currency',
  currency: 'TRY',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** The locale each language writes dates in: Turkish in tr-TR (as the spec asks), English in en-GB. */
const LOCALES: Record<Language, string> = { tr: 'tr-TR', en: 'en-GB' };

// One date format per language, everywhere: day, short month name, year ("24 Kas 2026",
// "24 Nov 2026"), with the time after it where it matters. Built once per language.
const formats = new Map<Language, { date: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat }>();
function formatsFor(lang: Language) {
  let f = formats.get(lang);
  if (!f) {
    const day = { day: 'numeric', month: 'short', year: 'numeric' } as const;
    f = {
      date: new Intl.DateTimeFormat(LOCALES[lang], day),
      dateTime: new Intl.DateTimeFormat(LOCALES[lang], { ...day, hour: '2-digit', minute: '2-digit' }),
    };
    formats.set(lang, f);
  }
  return f;
}

/** Lira with the sign and two decimals, in the TRY currency format of tr-TR ("₺1.234,50"). */
export function formatMoney(tl: number | null | undefined): string {
  return money.format(Number.isFinite(tl) ? Number(tl) : 0);
}

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A date in the reader's language ("22 Kas 2026", "22 Nov 2026"); empty for missing or invalid values. */
export function formatDate(
  value: string | number | Date | null | undefined,
  lang = currentLanguage(),
): string {
  const d = toDate(value);
  return d ? formatsFor(lang).date.format(d) : '';
}

/** A date and time in the reader's language ("22 Kas 2026 14:05", "22 Nov 2026, 14:05"). */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  lang = currentLanguage(),
): string {
  const d = toDate(value);
  return d ? formatsFor(lang).dateTime.format(d) : '';
}

/**
 * An account number as people read it: a Turkish IBAN in groups of four ("TR33 0006 1005 ...");
 * anything else (a Papara number, a masked number) as it is.
 */
export function formatAccountNumber(value: string): string {
  const compact = value.replace(/\s+/g, '');
  return /^TR\d{24}$/i.test(compact) ? compact.toUpperCase().replace(/(.{4})(?=.)/g, '$1 ') : value;
}
