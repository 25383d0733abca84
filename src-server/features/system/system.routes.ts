import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { systemStatus } from './system.service';

/** /api/admin/system: the System screen (read-only; admins only, checked against the account now). */
export const systemRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json(envelope(await systemStatus(c.var.deps))));
