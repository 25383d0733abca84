import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { adminUsersQuerySchema } from '../../contract/admin';
import type { ExportKind } from '../../contract/exports';
import { payoutFileQuerySchema } from '../../contract/payouts';
import { FIELD_MESSAGES } from '../../contract/schemas';
import { submissionListQuerySchema } from '../../contract/submissions';
import { adminWithdrawalsQuerySchema } from '../../contract/withdrawals';
import { fail } from '../../errors';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check } from '../../http/validate';
import { type ExportFilters, exportStream } from './admin-exports.service';
import { DIALECTS } from './csv';
import { payoutFile } from './payout-file';

const exportQuerySchema = z.object({
  format: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['excel-tr', 'rfc4180'], { error: FIELD_MESSAGES.invalidValue }).default('excel-tr'),
  ),
  lang: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['tr', 'en'], { error: FIELD_MESSAGES.invalidValue }).default('tr'),
  ),
});

/** Exports at once, server-wide: each reads the whole table at the reader's pace. */
export const MAX_EXPORTS_AT_ONCE = 2;
let running = 0;

function send(c: Context<AppEnv>, kind: ExportKind, filters: ExportFilters): Response {
  const { format, lang } = check(exportQuerySchema, c.req.query());
  // 429 rather than 503: the admin's own exports use the slots up; one finishes within seconds
  if (running >= MAX_EXPORTS_AT_ONCE) throw fail.throttled(5);
  running++;
  const body = exportStream(c.var.deps.db, filters, DIALECTS[format], lang, () => {
    running--;
  });
  const day = c.var.deps.clock().toISOString().slice(0, 10);
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': `text/csv; charset=utf-8${format === 'rfc4180' ? '; header=present' : ''}`,
      'Content-Disposition': `attachment; filename="taskreward-${kind}-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}

/**
 * GET /api/admin/{submissions|withdraws|users}/export.csv with the list screens' filters:
 * streamed, Excel-Turkish by default, `?format=rfc4180` for plain comma CSV (csv.ts).
 * Mounted at /api/admin before the resources' own routes.
 */
export const adminExportRoutes = new Hono<AppEnv>()
  .get('/submissions/export.csv', requireAdmin, (c) => {
    const { status, q, task, user, flagged, appeal } = check(submissionListQuerySchema, c.req.query());
    return send(c, 'submissions', { kind: 'submissions', status, q, task, user, flagged, appeal });
  })
  .get('/withdraws/export.csv', requireAdmin, (c) => {
    const filter = check(adminWithdrawalsQuerySchema, c.req.query());
    return send(c, 'withdraws', { kind: 'withdraws', filter });
  })
  .get('/users/export.csv', requireAdmin, (c) => {
    const filter = check(adminUsersQuerySchema, c.req.query());
    return send(c, 'users', { kind: 'users', filter });
  })
  // the bank's or Papara's bulk payout file of one day's approved withdrawals (payout-file.ts)
  .get('/withdraws/payouts.csv', requireAdmin, async (c) => {
    const { day, file } = check(payoutFileQuerySchema, c.req.query());
    const { text, rows } = await payoutFile(c.var.deps.db, day, file);
    return new Response(text, {
      status: 200,
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="taskreward-payouts-${file}-${day}.csv"`,
        'Cache-Control': 'no-store',
        'X-Payout-Rows': String(rows),
      },
    });
  });
