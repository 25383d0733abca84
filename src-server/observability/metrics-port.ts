import { createServer, type Server } from 'node:http';
import type { AppDeps } from '../deps';
import { log } from './logger';
import { registry } from './metrics';
import { renderMetrics } from './render-metrics';

/**
 * /metrics on its own port, bound to 127.0.0.1 only: a Prometheus (or an agent) on the same
 * machine scrapes it without a token, and nothing off the machine can reach it.
 */
export function startMetricsPort(deps: Pick<AppDeps, 'db' | 'work' | 'clock'>, port: number): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    renderMetrics(deps).then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (err: unknown) => {
        log().error({ err }, 'metrics: the scrape failed');
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('the scrape failed\n');
      },
    );
  });
  server.on('error', (err) => log().error({ err }, `metrics: cannot listen on 127.0.0.1:${port}`));
  server.listen(port, '127.0.0.1', () => log().info(`metrics on http://127.0.0.1:${port}/metrics`));
  return server;
}
