import { Hono } from 'hono';
import { settingsUpdateSchema } from '../../contract/admin';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { getSettings, updateSettings } from './settings.service';
import { removeStoredImages, uploadSiteImage } from './settings-images';

/** GET is public (the footer and the payout rules need it); changes are for admins. */
export const settingsRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    return c.json({ success: true, data: await getSettings(c.var.deps.db) });
  })
  .put('/', requireAdmin, async (c) => {
    const patch = await readJson(c, settingsUpdateSchema);
    const { settings, dropped } = await updateSettings(c.var.deps, patch, { actorId: c.var.user._id });
    await removeStoredImages(c.var.deps, dropped);
    return c.json({ success: true, data: settings });
  })
  .put('/logo', requireAdmin, async (c) => {
    const data = await uploadSiteImage(c.var.deps, c.var.user._id, 'logo', c.req.raw);
    return c.json({ success: true, data });
  })
  .put('/favicon', requireAdmin, async (c) => {
    const data = await uploadSiteImage(c.var.deps, c.var.user._id, 'favicon', c.req.raw);
    return c.json({ success: true, data });
  });
