/** The two CSV dialects of the admin exports. */
export type CsvFormat = 'excel-tr' | 'rfc4180';

export interface CsvDialect {
  format: CsvFormat;
  separator: ';' | ',';
  /** written once before the header: Excel reads UTF-8 only with it */
  prefix: string;
  /** kuruş -> the cell's text */
  money: (kurus: number) => string;
  /** ISO instant (or null) -> the cell's text */
  date: (iso: string | null) => string;
}

const TURKEY_OFFSET_MS = 3 * 3_600_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** 25.11.2026 14:03:09 in Turkey's time (UTC+3 all year), the way Excel set to Turkish reads it. */
export function trDate(iso: string | null): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const d = new Date(ms + TURKEY_OFFSET_MS);
  return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Kuruş as lira with two decimals and the given decimal mark, no thousands separator. */
export function lira(kurus: number, mark: ',' | '.'): string {
  const sign = kurus < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(kurus));
  return `${sign}${Math.floor(abs / 100)}${mark}${pad(abs % 100)}`;
}

export const DIALECTS: Record<CsvFormat, CsvDialect> = {
  'excel-tr': {
    format: 'excel-tr',
    separator: ';',
    prefix: '\uFEFF',
    money: (k) => lira(k, ','),
    date: trDate,
  },
  rfc4180: {
    format: 'rfc4180',
    separator: ',',
    prefix: '',
    money: (k) => lira(k, '.'),
    date: (iso) => iso ?? '',
  },
};

/** A cell as written: text from people, or a number or date the server formatted. */
export type Cell = string | number | null | undefined | { raw: string };

// OWASP's CSV injection guidance: a cell a spreadsheet could read as a formula starts with one
// of these (tab and carriage return included); such a cell gets a leading apostrophe
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell's text: neutralised when it could start a formula, quoted when it must be. */
export function csvCell(value: Cell, separator: string): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'object') text = value.raw;
  else if (typeof value === 'number') text = String(value);
  else text = FORMULA_START.test(value) ? `'${value}` : value;
  if (text.includes('"') || text.includes(separator) || text.includes('\n') || text.includes('\r')) {
    return `"${text.replaceAll('"', '""')}"`;
  }
  return text;
}

/** One CSV record with its CRLF (RFC 4180). */
export function csvLine(cells: readonly Cell[], separator: string): string {
  return `${cells.map((c) => csvCell(c, separator)).join(separator)}\r\n`;
}
