import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

export interface WebAsset {
  body: Uint8Array;
  type: string;
  /** Content-hashed build output: cached for a year. */
  immutable: boolean;
}

/** The built web app, keyed by URL path ("/assets/main-ABC123.js"). */
export type WebAssets = Map<string, WebAsset>;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

const HASHED = /[-.][A-Z0-9]{8,}\.[a-z0-9]+$/i;

/** Reads the built web app into memory once (it is small) so every reply is a map lookup. */
export function loadWebAssets(dir: string): WebAssets {
  const assets: WebAssets = new Map();
  if (!existsSync(dir)) return assets;
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const path = `/${relative(dir, full).split(sep).join('/')}`;
        assets.set(path, {
          body: readFileSync(full),
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          immutable: path.startsWith('/assets/') && HASHED.test(name),
        });
      }
    }
  };
  walk(dir);
  return assets;
}

/** Builds the asset map from in-memory entries (the single binary embeds them). */
export function webAssetsFrom(entries: Iterable<[string, Uint8Array]>): WebAssets {
  const assets: WebAssets = new Map();
  for (const [path, body] of entries) {
    assets.set(path, {
      body,
      type: TYPES[extname(path)] ?? 'application/octet-stream',
      immutable: path.startsWith('/assets/') && HASHED.test(path),
    });
  }
  return assets;
}
