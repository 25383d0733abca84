import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { notificationRequestSchema } from '../../contract/notifications';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { sendNotification } from './notifications.service';

/** POST /api/auth/send-notification (admins), mounted beside the auth routes. */
export const notificationsRoutes = new Hono<AppEnv>().post('/send-notification', requireAdmin, async (c) => {
  const request = await readJson(c, notificationRequestSchema);
  return c.json(envelope(await sendNotification(c.var.deps, c.var.user._id, request)));
});

/**
 * GET /api/admin/notifications/status (admins): whether push is configured, so the dialog can
 * say so when it opens rather than after the message is written.
 */
export const notificationStatusRoutes = new Hono<AppEnv>().get('/status', requireAdmin, (c) =>
  c.json(envelope({ configured: c.var.deps.push.configured })),
);
