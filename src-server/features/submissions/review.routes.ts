import { Hono } from 'hono';
import { reviewRequestSchema } from '../../contract/review';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { idempotencyScope, sendMoneyReply } from '../money/idempotency';
import { reviewSubmission } from './review.service';

/** PUT /api/submissions/{id}/review, mounted beside the submissions routes. */
export const reviewRoutes = new Hono<AppEnv>().put('/:id/review', requireAdmin, async (c) => {
  const review = await readJson(c, reviewRequestSchema);
  const scope = await idempotencyScope(c, c.var.user._id);
  const reply = await reviewSubmission(c.var.deps, c.var.user._id, c.req.param('id'), review, scope);
  return sendMoneyReply(c, reply);
});
