import { Hono } from 'hono';
import {
  adminUserHistoryQuerySchema,
  adminUserUpdateSchema,
  deleteUserQuerySchema,
} from '../../contract/admin';
import { envelope } from '../../contract/envelope';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check, readJson } from '../../http/validate';
import { deleteUserByAdmin } from './user-deletion';
import { updateUserByAdmin } from './user-edit';
import { userLinkedAccounts, userSubmissionsPage, userWithdrawalsPage } from './user-history.service';

/**
 * /api/admin/users/{id}: what an admin does to one account that reaches other aggregates: the edit
 * (a balance is a ledger adjustment), the deletion (what the user holds is settled) and the
 * account's history (its submissions, withdrawals and linked accounts). The list and the detail
 * are the users folder's own (users/admin-users.routes.ts).
 */
export const adminUserRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .put('/:id', async (c) => {
    const input = await readJson(c, adminUserUpdateSchema);
    const data = await updateUserByAdmin(c.var.deps, c.var.user._id, c.req.param('id'), input);
    return c.json(envelope(data));
  })
  .delete('/:id', async (c) => {
    const { forfeit } = check(deleteUserQuerySchema, c.req.query());
    const data = await deleteUserByAdmin(c.var.deps, c.var.user._id, c.req.param('id'), { forfeit });
    return c.json(envelope(data));
  })
  .get('/:id/submissions', async (c) => {
    const query = check(adminUserHistoryQuerySchema, c.req.query());
    return c.json(envelope(await userSubmissionsPage(c.var.deps, c.req.param('id'), query)));
  })
  .get('/:id/withdrawals', async (c) => {
    const query = check(adminUserHistoryQuerySchema, c.req.query());
    return c.json(envelope(await userWithdrawalsPage(c.var.deps, c.req.param('id'), query)));
  })
  .get('/:id/linked', async (c) => {
    return c.json(envelope(await userLinkedAccounts(c.var.deps, c.req.param('id'))));
  });
