import { Hono } from 'hono';
import { z } from 'zod';
import { envelope } from '../../contract/envelope';
import { withdrawalRequestSchema } from '../../contract/withdrawals';
import { requireActive, requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { idempotencyScope, sendMoneyReply } from '../money/idempotency';
import {
  forgetMyPayoutAccount,
  myPayoutAccount,
  myWithdrawals,
  requestWithdrawal,
} from './withdrawals.service';

/** /api/withdraws: a user's own withdrawal requests. */
export const withdrawalsRoutes = new Hono<AppEnv>()
  .post('/', requireUser, requireActive, async (c) => {
    const request = await readJson(c, withdrawalRequestSchema);
    const scope = await idempotencyScope(c, c.var.user._id);
    return sendMoneyReply(c, await requestWithdrawal(c.var.deps, c.var.user, request, scope));
  })
  .get('/', requireUser, async (c) => {
    return c.json(envelope(await myWithdrawals(c.var.deps, c.var.user)));
  })
  // the saved payout account: read (masked) and forgotten by its owner, suspended or not;
  // it is written only by a withdrawal request, which a suspended account may not make
  .get('/account', requireUser, async (c) => {
    return c.json(envelope(await myPayoutAccount(c.var.deps, c.var.user)));
  })
  .delete('/account', requireUser, async (c) => {
    // it names no one: a body with any field (another user's id) is refused, not ignored
    await readJson(c, z.object({}).strict());
    return c.json(envelope({ forgotten: await forgetMyPayoutAccount(c.var.deps, c.var.user) }));
  });
