import { Hono } from 'hono';
import { adminUsersQuerySchema } from '../../contract/admin';
import { envelope } from '../../contract/envelope';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check } from '../../http/validate';
import { getUserDetail, listUsers } from './admin-users.service';

/**
 * /api/admin/users: the user list and detail. The edit, the deletion and the user's history reach
 * other aggregates and are in processes/admin-user.routes.ts.
 */
export const adminUsersRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => {
    const query = check(adminUsersQuerySchema, c.req.query());
    return c.json(envelope(await listUsers(c.var.deps, query)));
  })
  .get('/:id', async (c) => {
    return c.json(envelope(await getUserDetail(c.var.deps, c.req.param('id'))));
  });
