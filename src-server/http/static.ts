import type { Context, Hono } from 'hono';
import type { AppEnv } from './env';
import type { WebAsset, WebAssets } from './web-assets';

const FALLBACK_HTML = `<!doctype html><html lang="tr"><head><meta charset="utf-8"><title>TaskReward</title></head>
<body><p>The web app is not built. Run <code>npm run build</code>.</p></body></html>`;

/** The q-value of each content coding an Accept-Encoding header names ("*" included). */
function parseAcceptEncoding(header: string): Map<string, number> {
  const codings = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key.trim().toLowerCase() === 'q') {
        const n = Number(value?.trim());
        q = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0;
      }
    }
    codings.set(coding === 'x-gzip' ? 'gzip' : coding, q);
  }
  return codings;
}

/**
 * The coding to answer with, of those the client accepts (q > 0; a coding it does not name is
 * accepted only through "*"): the higher q, brotli on a tie, gzip next, else none (identity).
 */
export function chooseEncoding(
  header: string | undefined,
  available: { br: boolean; gzip: boolean },
): 'br' | 'gzip' | null {
  if (!header || (!available.br && !available.gzip)) return null;
  const codings = parseAcceptEncoding(header);
  const q = (coding: 'br' | 'gzip') =>
    available[coding] ? (codings.get(coding) ?? codings.get('*') ?? 0) : 0;
  const br = q('br');
  const gzip = q('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
}

/** Answers with the asset's bytes, or its build-time brotli/gzip copy when the client takes one. */
function sendAsset(c: Context<AppEnv>, asset: WebAsset) {
  c.header('Content-Type', asset.type);
  if (!asset.compressible) return c.body(asset.body as Uint8Array<ArrayBuffer>);
  c.header('Vary', 'Accept-Encoding', { append: true });
  // whether a copy exists, without reading it (loadWebAssets reads each file when first asked)
  const coding = chooseEncoding(c.req.header('Accept-Encoding'), { br: 'br' in asset, gzip: 'gz' in asset });
  const bytes = coding === 'br' ? asset.br : coding === 'gzip' ? asset.gz : undefined;
  if (!coding || !bytes) return c.body(asset.body as Uint8Array<ArrayBuffer>);
  c.header('Content-Encoding', coding);
  return c.body(bytes as Uint8Array<ArrayBuffer>);
}

/**
 * Serves the built app: hashed assets cached for a year, index.html for every other GET (client
 * routes). Text files go out brotli- or gzip-compressed when the client accepts it, from copies
 * made at build time: nothing is compressed here, at start-up or per request.
 */
export function mountWebApp(app: Hono<AppEnv>, assets: WebAssets): void {
  app.on(['GET', 'HEAD'], '*', (c) => {
    let path = c.req.path;
    try {
      path = decodeURIComponent(path);
    } catch {
      // a malformed escape is just an unknown path
    }
    const asset = path !== '/' && path !== '/index.html' ? assets.get(path) : undefined;
    // a file listed at start but gone when first read (the build folder replaced under a running
    // server) is not found, not a server error
    if (asset) {
      try {
        c.header('Cache-Control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        return sendAsset(c, asset);
      } catch {
        c.header('Cache-Control', 'no-cache');
        return c.text('Not found', 404);
      }
    }
    if (path.startsWith('/assets/')) return c.text('Not found', 404);
    const index = assets.get('/index.html');
    c.header('Cache-Control', 'no-cache');
    if (!index) return c.html(FALLBACK_HTML);
    try {
      return sendAsset(c, index);
    } catch {
      return c.html(FALLBACK_HTML);
    }
  });
}
