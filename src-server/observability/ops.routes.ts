import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { fail } from '../errors';
import type { AppEnv } from '../http/env';
import { registry } from './metrics';
import { readiness } from './readiness';
import { renderMetrics } from './render-metrics';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The probes and the scrape, outside /api: /healthz (the process runs), /readyz (send it
 * requests), /metrics (with METRICS_TOKEN as a bearer token; a 404 without the setting or the
 * token, so a site does not show that it has them).
 */
export const opsRoutes = new Hono<AppEnv>({ strict: false });

opsRoutes.get('/healthz', (c) => {
  c.header('Cache-Control', 'no-store');
  return c.json({ status: 'ok' });
});

opsRoutes.get('/readyz', async (c) => {
  const deps = c.get('deps');
  const result = await readiness(deps.db, deps.config, deps.files);
  c.header('Cache-Control', 'no-store');
  if (result.ready) return c.json({ status: 'ready' });
  return c.json({ status: 'unready', failing: result.failing, problems: result.problems }, 503);
});

opsRoutes.get('/metrics', async (c) => {
  const deps = c.get('deps');
  const token = deps.config.metricsToken;
  const given = /^Bearer (.+)$/i.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
  // without the setting or the token, the same 404 as any unknown path: nothing says it is here
  if (!token || !sameToken(given, token)) throw fail.notFound('route_not_found');
  c.header('Cache-Control', 'no-store');
  return c.body(await renderMetrics(deps), 200, { 'Content-Type': registry.contentType });
});
