import { Hono } from 'hono';
import { z } from 'zod';
import { envelope } from '../../contract/envelope';
import { FIELD_MESSAGES } from '../../contract/schemas';
import { statementQuerySchema } from '../../contract/statement';
import { requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check } from '../../http/validate';
import { DIALECTS } from './csv';
import { myStatement, myStatementCsv } from './statement.service';

const csvQuerySchema = z.object({
  month: statementQuerySchema.shape.month,
  format: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['excel-tr', 'rfc4180'], { error: FIELD_MESSAGES.invalidValue }).default('excel-tr'),
  ),
  lang: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['tr', 'en'], { error: FIELD_MESSAGES.invalidValue }).default('tr'),
  ),
});

/**
 * GET /api/users/me/statement and /me/statement.csv: the signed-in worker's own ledger only
 * (there is no id to ask for anyone else's); a suspended account may read it too.
 */
export const statementRoutes = new Hono<AppEnv>()
  .get('/me/statement', requireUser, async (c) => {
    const query = check(statementQuerySchema, c.req.query());
    return c.json(envelope(await myStatement(c.var.deps, c.var.user._id, query)));
  })
  .get('/me/statement.csv', requireUser, async (c) => {
    const { month, format, lang } = check(csvQuerySchema, c.req.query());
    const body = await myStatementCsv(c.var.deps, c.var.user._id, month, DIALECTS[format], lang);
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': `text/csv; charset=utf-8${format === 'rfc4180' ? '; header=present' : ''}`,
        'Content-Disposition': `attachment; filename="taskreward-statement-${month ?? 'all'}.csv"`,
        'Cache-Control': 'no-store',
      },
    });
  });
