import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import {
  adminWithdrawalsQuerySchema,
  withdrawalApprovalSchema,
  withdrawalRejectionSchema,
} from '../../contract/withdrawals';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check, readJson } from '../../http/validate';
import { idempotencyScope, sendMoneyReply } from '../money/idempotency';
import { approveWithdrawal, listWithdrawals, rejectWithdrawal } from './admin-withdrawals.service';

/** /api/admin/withdraws: the withdrawal management screen. */
export const adminWithdrawalsRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => {
    const query = check(adminWithdrawalsQuerySchema, c.req.query());
    return c.json(envelope(await listWithdrawals(c.var.deps, query)));
  })
  .put('/:id/approve', async (c) => {
    await readJson(c, withdrawalApprovalSchema);
    const scope = await idempotencyScope(c, c.var.user._id);
    return sendMoneyReply(c, await approveWithdrawal(c.var.deps, c.var.user._id, c.req.param('id'), scope));
  })
  .put('/:id/reject', async (c) => {
    const rejection = await readJson(c, withdrawalRejectionSchema);
    const scope = await idempotencyScope(c, c.var.user._id);
    return sendMoneyReply(
      c,
      await rejectWithdrawal(c.var.deps, c.var.user._id, c.req.param('id'), rejection, scope),
    );
  });
