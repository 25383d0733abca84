import { z } from 'zod';
import { FIELD_MESSAGES } from './schemas';
import { pageQuery } from './tasks';

/** A calendar month as 2026-11 (in Turkey's time). */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** GET /api/users/me/statement (and .csv): one page of the worker's ledger, optionally one month. */
export const statementQuerySchema = z.object({
  month: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string().regex(MONTH_PATTERN, FIELD_MESSAGES.invalidValue).optional(),
  ),
  ...pageQuery,
});

/** What moved a balance, as the worker may see it. */
export type StatementKind = 'reward' | 'withdrawal_hold' | 'withdrawal_refund' | 'adjustment' | 'forfeit';

/** One balance change: signed amount and the balance right after it (TL). */
export interface StatementRowDto {
  id: number;
  at: string;
  kind: StatementKind;
  amount: number;
  balanceAfter: number;
  /** the rewarded task, for a reward */
  task: { _id: string; title: string } | null;
}

export interface StatementDto {
  items: StatementRowDto[];
  page: number;
  limit: number;
  total: number;
  pages: number;
  month: string | null;
  /** over the whole filter, not the page (TL): what came in, what went out, and the net */
  totals: { credits: number; debits: number; net: number };
}

/** The statement CSV's columns and kind names, per language (`?lang=`, Turkish by default). */
export const STATEMENT_WORDS: Record<
  'tr' | 'en',
  { columns: string[]; kind: Record<StatementKind, string> }
> = {
  tr: {
    columns: ['Tarih', 'Hareket', 'Görev', 'Tutar (TL)', 'Bakiye (TL)'],
    kind: {
      reward: 'Görev ödülü',
      withdrawal_hold: 'Para çekme',
      withdrawal_refund: 'Para çekme iadesi',
      adjustment: 'Bakiye düzeltmesi',
      forfeit: 'Hesap kapanışı',
    },
  },
  en: {
    columns: ['Date', 'Movement', 'Task', 'Amount (TL)', 'Balance (TL)'],
    kind: {
      reward: 'Task reward',
      withdrawal_hold: 'Withdrawal',
      withdrawal_refund: 'Withdrawal refund',
      adjustment: 'Balance adjustment',
      forfeit: 'Account closure',
    },
  },
};
