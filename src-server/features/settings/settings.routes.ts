import { Hono } from 'hono';
import type { AppEnv } from '../../http/env';
import { getSettings } from './settings.service';

export const settingsRoutes = new Hono<AppEnv>().get('/', async (c) => {
  return c.json({ success: true, data: await getSettings(c.var.deps.db) });
});
