import { Hono } from 'hono';
import { mySubmissionsQuerySchema, submissionListQuerySchema } from '../../contract/submissions';
import { requireActive, requireAdmin, requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check } from '../../http/validate';
import { allSubmissions, mySubmissions, receiveProof, submitProof } from './submissions.service';

export const submissionsRoutes = new Hono<AppEnv>()
  .post('/', requireUser, requireActive, async (c) => {
    // the proof counts from when its request began: a slow upload is not its sender's delay
    const arrivedAt = c.var.deps.clock().toISOString();
    const upload = await receiveProof(c.var.deps, c.var.user, c.req.raw);
    try {
      return c.json(
        { success: true, data: await submitProof(c.var.deps, c.var.user, upload, arrivedAt) },
        201,
      );
    } finally {
      await upload.discard();
    }
  })
  .get('/user', requireUser, async (c) => {
    const { status } = check(mySubmissionsQuerySchema, c.req.query());
    return c.json({ success: true, data: await mySubmissions(c.var.deps, c.var.user, status) });
  })
  .get('/', requireAdmin, async (c) => {
    const query = check(submissionListQuerySchema, c.req.query());
    return c.json({ success: true, data: await allSubmissions(c.var.deps, query) });
  });
