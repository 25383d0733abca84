import { Hono } from 'hono';
import { auditQuerySchema } from '../../contract/audit';
import { envelope } from '../../contract/envelope';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check } from '../../http/validate';
import { listAudit } from './audit.service';

/** /api/admin/audit: the audit log, read-only (it is append-only: no route changes it). */
export const adminAuditRoutes = new Hono<AppEnv>().use('*', requireAdmin).get('/', async (c) => {
  const query = check(auditQuerySchema, c.req.query());
  return c.json(envelope(await listAudit(c.var.deps, query)));
});
