import { Hono } from 'hono';
import { z } from 'zod';
import { envelope } from '../../contract/envelope';
import { inboxQuerySchema } from '../../contract/inbox';
import { requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check, readJson } from '../../http/validate';
import { listInbox, readAll, readOne, unreadCount } from './inbox.service';

/** Marking read takes no fields: an empty body (or none); anything else is refused. */
const noFields = z.object({}).strict();

/** /api/notifications: the signed-in user's in-app inbox (their own messages only). */
export const inboxRoutes = new Hono<AppEnv>()
  .use('*', requireUser)
  .get('/', async (c) => {
    const query = check(inboxQuerySchema, c.req.query());
    return c.json(envelope(await listInbox(c.var.deps, c.var.user, query)));
  })
  .get('/unread', async (c) => c.json(envelope(await unreadCount(c.var.deps, c.var.user))))
  .put('/read-all', async (c) => {
    await readJson(c, noFields);
    return c.json(envelope(await readAll(c.var.deps, c.var.user)));
  })
  .put('/:id/read', async (c) => {
    await readJson(c, noFields);
    return c.json(envelope(await readOne(c.var.deps, c.var.user, c.req.param('id'))));
  });
