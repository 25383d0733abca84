import { PAYOUT_COLUMNS, PAYOUT_DESCRIPTION, type PayoutFile } from '../../contract/payouts';
import { TURKEY_UTC_OFFSET_HOURS } from '../../contract/tasks';
import type { Db } from '../../db/database';
import { csvLine, DIALECTS } from './csv';

const DAY_MS = 86_400_000;

/** A calendar day in Turkey as the half-open window of ISO instants it covers. */
export function turkeyDayWindow(day: string): { from: string; to: string } {
  const start = Date.parse(`${day}T00:00:00.000Z`) - TURKEY_UTC_OFFSET_HOURS * 3_600_000;
  return { from: new Date(start).toISOString(), to: new Date(start + DAY_MS).toISOString() };
}

/** The withdrawals of one method approved within a Turkish day, oldest approval first. */
export function approvedOn(db: Db, day: string, method: 'iban' | 'papara') {
  const w = turkeyDayWindow(day);
  return db
    .selectFrom('withdrawals')
    .select(['_id', 'amount', 'full_name', 'account_number', 'reviewed_at'])
    .where('status', '=', 'approved')
    .where('payment_method', '=', method)
    .where('reviewed_at', '>=', w.from)
    .where('reviewed_at', '<', w.to)
    .orderBy('reviewed_at')
    .orderBy('_id')
    .execute();
}

/** An IBAN as banks' upload screens take it: capitals, no spaces. */
const compactIban = (v: string) => v.replace(/\s+/g, '').toUpperCase();
/** A Papara number as digits only (people type it with spaces or dashes). */
const paparaNumber = (v: string) => (/^[\d\s-]+$/.test(v) ? v.replace(/[\s-]/g, '') : v.trim());

/**
 * The whole file, in the admin exports' Turkish-Excel dialect (semicolons, a byte-order mark,
 * comma decimals, CRLF): a day's payouts are a few hundred rows, so it is built in memory.
 */
export async function payoutFile(
  db: Db,
  day: string,
  file: PayoutFile,
): Promise<{ text: string; rows: number }> {
  const d = DIALECTS['excel-tr'];
  const rows = await approvedOn(db, day, file === 'eft' ? 'iban' : 'papara');
  let text = d.prefix + csvLine(PAYOUT_COLUMNS[file], d.separator);
  rows.forEach((r, i) => {
    const amount = { raw: d.money(r.amount) };
    const cells =
      file === 'eft'
        ? [i + 1, r.full_name, compactIban(r.account_number), amount, 'TRY', PAYOUT_DESCRIPTION, r._id]
        : [i + 1, paparaNumber(r.account_number), r.full_name, amount, PAYOUT_DESCRIPTION, r._id];
    text += csvLine(cells, d.separator);
  });
  return { text, rows: rows.length };
}
