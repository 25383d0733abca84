import { Hono } from 'hono';
import {
  adminUserHistoryQuerySchema,
  adminUsersQuerySchema,
  deleteUserQuerySchema,
} from '../../contract/admin';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check, readJson } from '../../http/validate';
import { anyObject } from '../money/body';
import { userSubmissionsPage, userWithdrawalsPage } from '../processes/user-history.service';
import { deleteUserByAdmin, getUserDetail, listUsers, updateUserByAdmin } from './admin-users.service';

/** /api/admin/users: the user list, detail, edit and delete screens. */
export const adminUsersRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => {
    const query = check(adminUsersQuerySchema, c.req.query());
    return c.json({ success: true, data: await listUsers(c.var.deps, query) });
  })
  .get('/:id', async (c) => {
    return c.json({ success: true, data: await getUserDetail(c.var.deps, c.req.param('id')) });
  })
  .put('/:id', async (c) => {
    const body = await readJson(c, anyObject);
    const data = await updateUserByAdmin(c.var.deps, c.var.user._id, c.req.param('id'), body);
    return c.json({ success: true, data });
  })
  .delete('/:id', async (c) => {
    const { forfeit } = check(deleteUserQuerySchema, c.req.query());
    const data = await deleteUserByAdmin(c.var.deps, c.var.user._id, c.req.param('id'), { forfeit });
    return c.json({ success: true, data });
  })
  .get('/:id/submissions', async (c) => {
    const query = check(adminUserHistoryQuerySchema, c.req.query());
    return c.json({ success: true, data: await userSubmissionsPage(c.var.deps, c.req.param('id'), query) });
  })
  .get('/:id/withdrawals', async (c) => {
    const query = check(adminUserHistoryQuerySchema, c.req.query());
    return c.json({ success: true, data: await userWithdrawalsPage(c.var.deps, c.req.param('id'), query) });
  });
