import { Hono } from 'hono';
import { appealDecisionSchema, appealSchema } from '../../contract/appeals';
import { envelope } from '../../contract/envelope';
import { requireActive, requireAdmin, requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { idempotencyScope, sendMoneyReply } from '../money/idempotency';
import { appealRejection, decideAppealFor } from './appeals.service';

/** POST /api/submissions/{id}/appeal (the worker), mounted beside the submissions routes. */
export const appealRoutes = new Hono<AppEnv>().post('/:id/appeal', requireUser, requireActive, async (c) => {
  const { message } = await readJson(c, appealSchema);
  return c.json(envelope(await appealRejection(c.var.deps, c.var.user, c.req.param('id'), message)), 201);
});

/** PUT /api/admin/submissions/{id}/appeal (admins), mounted under /api/admin/submissions. */
export const adminAppealRoutes = new Hono<AppEnv>().put('/:id/appeal', requireAdmin, async (c) => {
  const decision = await readJson(c, appealDecisionSchema);
  const scope = await idempotencyScope(c, c.var.user._id);
  return sendMoneyReply(
    c,
    await decideAppealFor(c.var.deps, c.var.user._id, c.req.param('id'), decision, scope),
  );
});
