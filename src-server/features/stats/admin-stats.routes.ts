import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { adminStats, todayStats } from './admin-stats.service';

/** /api/admin/stats: the dashboard's cards. */
export const adminStatsRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json(envelope(await adminStats(c.var.deps))))
  .get('/today', async (c) => c.json(envelope(await todayStats(c.var.deps))));
