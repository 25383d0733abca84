import { Hono } from 'hono';
import { bulkSubmissionsReviewSchema, bulkWithdrawalsReviewSchema } from '../../contract/bulk-review';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { idempotencyScope, sendMoneyReply } from '../money/idempotency';
import { bulkReviewSubmissions, bulkReviewWithdrawals } from './bulk-actions.service';

/**
 * PUT /api/admin/submissions/review and PUT /api/admin/withdraws/review: many items, each its
 * own money move; the reply lists each id's result. Mounted at /api/admin.
 */
export const adminBulkRoutes = new Hono<AppEnv>()
  .put('/submissions/review', requireAdmin, async (c) => {
    const body = await readJson(c, bulkSubmissionsReviewSchema);
    const scope = await idempotencyScope(c, c.var.user._id);
    return sendMoneyReply(c, await bulkReviewSubmissions(c.var.deps, c.var.user._id, body, scope));
  })
  .put('/withdraws/review', requireAdmin, async (c) => {
    const body = await readJson(c, bulkWithdrawalsReviewSchema);
    const scope = await idempotencyScope(c, c.var.user._id);
    return sendMoneyReply(c, await bulkReviewWithdrawals(c.var.deps, c.var.user._id, body, scope));
  });
