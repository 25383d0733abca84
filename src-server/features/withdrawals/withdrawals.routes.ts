import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { withdrawalRequestSchema } from '../../contract/withdrawals';
import { requireActive, requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { idempotencyScope, sendMoneyReply } from '../money/idempotency';
import { myWithdrawals, requestWithdrawal } from './withdrawals.service';

/** /api/withdraws: a user's own withdrawal requests. */
export const withdrawalsRoutes = new Hono<AppEnv>()
  .post('/', requireUser, requireActive, async (c) => {
    const request = await readJson(c, withdrawalRequestSchema);
    const scope = await idempotencyScope(c, c.var.user._id);
    return sendMoneyReply(c, await requestWithdrawal(c.var.deps, c.var.user, request, scope));
  })
  .get('/', requireUser, async (c) => {
    return c.json(envelope(await myWithdrawals(c.var.deps, c.var.user)));
  });
