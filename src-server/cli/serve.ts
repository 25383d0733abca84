import { serve } from '@hono/node-server';
import { createApp } from '../app';
import { openApp } from '../bootstrap';
import type { Config } from '../config';

/** Serves the app and the API until SIGINT/SIGTERM; prints one `listening on` line when ready. */
export async function runServe(config: Config): Promise<void> {
  const opened = await openApp(config);
  const app = createApp(opened.deps);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    console.log(`listening on http://${host}:${info.port}`);
  });
  const stop = () => {
    server.close(async () => {
      await opened.close();
      process.exit(0);
    });
    // idle keep-alive connections must not hold the shutdown
    if ('closeAllConnections' in server) server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
