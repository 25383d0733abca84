const money = new Intl.NumberFormat('tr-TR', {
  style: 'currency',
  currency: 'TRY',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const date = new Intl.DateTimeFormat('tr-TR', { day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTime = new Intl.DateTimeFormat('tr-TR', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const longDate = new Intl.DateTimeFormat('tr-TR', { day: 'numeric', month: 'long', year: 'numeric' });

/** Lira with the sign and two decimals, in the TRY currency format of tr-TR ("₺1.234,50"). */
export function formatMoney(tl: number | null | undefined): string {
  return money.format(Number.isFinite(tl) ? Number(tl) : 0);
}

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A date in the tr-TR locale ("22.11.2026"); empty for missing or invalid values. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  return d ? date.format(d) : '';
}

export function formatDateTime(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  return d ? dateTime.format(d) : '';
}

export function formatLongDate(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  return d ? longDate.format(d) : '';
}
