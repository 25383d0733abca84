import { Hono } from 'hono';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { adminStats, todayStats } from './admin-stats.service';

/** /api/admin/stats: the dashboard's cards. */
export const adminStatsRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json({ success: true, data: await adminStats(c.var.deps) }))
  .get('/today', async (c) => c.json({ success: true, data: await todayStats(c.var.deps) }));
