import { Hono } from 'hono';
import { mySubmissionsQuerySchema, submissionListQuerySchema } from '../../contract/submissions';
import { requireActive, requireAdmin, requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check } from '../../http/validate';
import { allSubmissions, mySubmissions, receiveProof, submitProof } from './submissions.service';

export const submissionsRoutes = new Hono<AppEnv>()
  .post('/', requireUser, requireActive, async (c) => {
    const upload = await receiveProof(c.var.deps, c.var.user, c.req.raw);
    try {
      return c.json({ success: true, data: await submitProof(c.var.deps, c.var.user, upload) }, 201);
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
