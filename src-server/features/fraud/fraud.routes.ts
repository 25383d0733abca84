import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { dismissFlagSchema } from '../../contract/fraud';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { dismissFlag } from './fraud.service';

/** /api/admin/flags: dismissing a fraud signal; only the note is read from the body. */
export const adminFlagsRoutes = new Hono<AppEnv>().use('*', requireAdmin).put('/:id/dismiss', async (c) => {
  const { note } = await readJson(c, dismissFlagSchema);
  return c.json(envelope(await dismissFlag(c.var.deps, c.var.user._id, c.req.param('id'), note)));
});
