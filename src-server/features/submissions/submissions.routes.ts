import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import {
  mySubmissionsQuerySchema,
  submissionFieldsSchema,
  submissionListQuerySchema,
} from '../../contract/submissions';
import { requireActive, requireAdmin, requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { receiveImageForm } from '../../http/image-upload';
import { check } from '../../http/validate';
import { allSubmissions, mySubmissions, PROOF_FORM, submitProof } from './submissions.service';

export const submissionsRoutes = new Hono<AppEnv>()
  .post('/', requireUser, requireActive, async (c) => {
    // the proof counts from when its request began: a slow upload is not its sender's delay
    const arrivedAt = c.var.deps.clock().toISOString();
    const upload = await receiveImageForm(c.var.deps, c.var.user._id, c.req.raw, PROOF_FORM);
    try {
      const fields = check(submissionFieldsSchema, upload.fields);
      return c.json(envelope(await submitProof(c.var.deps, c.var.user, upload, fields, arrivedAt)), 201);
    } finally {
      await upload.discard();
    }
  })
  .get('/user', requireUser, async (c) => {
    const { status } = check(mySubmissionsQuerySchema, c.req.query());
    return c.json(envelope(await mySubmissions(c.var.deps, c.var.user, status)));
  })
  .get('/', requireAdmin, async (c) => {
    const query = check(submissionListQuerySchema, c.req.query());
    return c.json(envelope(await allSubmissions(c.var.deps, query)));
  });
