import type { Hono } from 'hono';
import type { AppEnv } from './env';
import type { WebAssets } from './web-assets';

const FALLBACK_HTML = `<!doctype html><html lang="tr"><head><meta charset="utf-8"><title>TaskReward</title></head>
<body><p>The web app is not built. Run <code>npm run build</code>.</p></body></html>`;

/** Serves the built app: hashed assets cached for a year, index.html for every other GET (client routes). */
export function mountWebApp(app: Hono<AppEnv>, assets: WebAssets): void {
  app.on(['GET', 'HEAD'], '*', (c) => {
    let path = c.req.path;
    try {
      path = decodeURIComponent(path);
    } catch {
      // a malformed escape is just an unknown path
    }
    const asset = path !== '/' && path !== '/index.html' ? assets.get(path) : undefined;
    if (asset) {
      c.header('Content-Type', asset.type);
      c.header('Cache-Control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      return c.body(asset.body as Uint8Array<ArrayBuffer>);
    }
    if (path.startsWith('/assets/')) return c.text('Not found', 404);
    const index = assets.get('/index.html');
    c.header('Cache-Control', 'no-cache');
    return c.html(index ? new TextDecoder().decode(index.body) : FALLBACK_HTML);
  });
}
