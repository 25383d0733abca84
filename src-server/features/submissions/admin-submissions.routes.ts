import { Hono } from 'hono';
import { recentSubmissionsQuerySchema } from '../../contract/admin';
import { envelope } from '../../contract/envelope';
import { pendingIdsQuerySchema, submissionListQuerySchema } from '../../contract/submissions';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check } from '../../http/validate';
import {
  adminSubmission,
  adminSubmissions,
  recentSubmissions,
  reviewableIds,
} from './admin-submissions.service';

/** /api/admin/submissions: the review screen's list, its pending ids, and the dashboard's recent ones. */
export const adminSubmissionsRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/recent', async (c) => {
    const { limit } = check(recentSubmissionsQuerySchema, c.req.query());
    return c.json(envelope(await recentSubmissions(c.var.deps, limit)));
  })
  .get('/pending-ids', async (c) => {
    const filter = check(pendingIdsQuerySchema, c.req.query());
    return c.json(envelope(await reviewableIds(c.var.deps, c.var.user._id, filter)));
  })
  .get('/:id', async (c) => {
    return c.json(envelope(await adminSubmission(c.var.deps, c.req.param('id'))));
  })
  .get('/', async (c) => {
    const query = check(submissionListQuerySchema, c.req.query());
    return c.json(envelope(await adminSubmissions(c.var.deps, query)));
  });
