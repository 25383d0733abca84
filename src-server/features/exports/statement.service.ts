import { kurusToTl } from '../../contract/money';
import { STATEMENT_WORDS, type StatementDto, type StatementKind } from '../../contract/statement';
import type { AppDeps } from '../../deps';
import { type CsvDialect, csvLine } from './csv';
import { monthRange, statementPage, statementRows, statementTotals } from './statement.repository';

type Deps = Pick<AppDeps, 'db'>;

/** GET /api/users/me/statement: the worker's ledger, newest first, with the balance after each row. */
export async function myStatement(
  deps: Deps,
  userId: string,
  query: { month?: string; page: number; limit: number },
): Promise<StatementDto> {
  const range = query.month ? monthRange(query.month) : null;
  const [rows, totals] = await Promise.all([
    statementPage(deps.db, userId, range, query.page, query.limit),
    statementTotals(deps.db, userId, range),
  ]);
  return {
    items: rows.map((r) => ({
      id: Number(r.id),
      at: r.created_at,
      kind: r.kind as StatementKind,
      amount: kurusToTl(r.amount),
      balanceAfter: kurusToTl(r.balance_after),
      task: r.task_id && r.task_title ? { _id: r.task_id, title: r.task_title } : null,
    })),
    page: query.page,
    limit: query.limit,
    total: totals.total,
    pages: Math.max(1, Math.ceil(totals.total / query.limit)),
    month: query.month ?? null,
    totals: {
      credits: kurusToTl(totals.credits),
      debits: kurusToTl(totals.debits),
      net: kurusToTl(totals.credits + totals.debits),
    },
  };
}

/** The statement as a CSV in the admin exports' dialects (Excel-Turkish by default), oldest first. */
export async function myStatementCsv(
  deps: Deps,
  userId: string,
  month: string | undefined,
  dialect: CsvDialect,
  lang: 'tr' | 'en',
): Promise<string> {
  const words = STATEMENT_WORDS[lang];
  const rows = await statementRows(deps.db, userId, month ? monthRange(month) : null);
  let out = dialect.prefix + csvLine(words.columns, dialect.separator);
  for (const r of rows) {
    out += csvLine(
      [
        { raw: dialect.date(r.created_at) },
        words.kind[r.kind as StatementKind],
        r.task_title,
        { raw: dialect.money(r.amount) },
        { raw: dialect.money(r.balance_after) },
      ],
      dialect.separator,
    );
  }
  return out;
}
