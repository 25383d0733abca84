import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

export interface WebAsset {
  body: Uint8Array;
  type: string;
  /** Content-hashed build output: cached for a year. */
  immutable: boolean;
  /** A text file worth compressing: its answers say `Vary: Accept-Encoding`. */
  compressible?: boolean;
  /** The same bytes compressed at build time (build/build.mjs): brotli, quality 11. */
  br?: Uint8Array;
  /** The same bytes compressed at build time: gzip, level 9. */
  gz?: Uint8Array;
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
  '.woff2': 'font/woff2',
};

/**
 * The file kinds build/build.mjs writes `.br` and `.gz` copies of (when over 1 KB and smaller).
 * Not source maps: only developer tools fetch them, and their copies would slow the start.
 */
export const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.json', '.svg', '.webmanifest', '.txt']);

/** The suffix of each precompressed copy and the WebAsset field it fills. */
const VARIANTS = [
  ['.br', 'br'],
  ['.gz', 'gz'],
] as const;

const HASHED = /[-.][A-Z0-9]{8,}\.[a-z0-9]+$/i;

/**
 * Source maps stay with the build (developer tools and the bench read them from dist/web) and
 * are never served: they would hand anyone the app's whole source with its comments.
 */
export function isServedAsset(path: string): boolean {
  return !path.endsWith('.map');
}

function assetFor(path: string, body: Uint8Array): WebAsset {
  const ext = extname(path);
  return {
    body,
    type: TYPES[ext] ?? 'application/octet-stream',
    immutable: path.startsWith('/assets/') && HASHED.test(path),
    compressible: COMPRESSIBLE.has(ext),
  };
}

/** "/assets/main-AB.js.br" -> ["/assets/main-AB.js", "br"] when it is a copy of a compressible file. */
function variantOf(path: string): [string, 'br' | 'gz'] | null {
  for (const [suffix, field] of VARIANTS) {
    if (!path.endsWith(suffix)) continue;
    const original = path.slice(0, -suffix.length);
    return COMPRESSIBLE.has(extname(original)) ? [original, field] : null;
  }
  return null;
}

/**
 * Defines `field` on the asset as the file's bytes, read at the first request that needs them
 * and kept from then on. A file gone by then (the folder rebuilt under a running server) throws,
 * which the static handler answers as not found.
 */
function readWhenAsked(asset: WebAsset, field: 'body' | 'br' | 'gz', file: string): void {
  Object.defineProperty(asset, field, {
    configurable: true,
    enumerable: true,
    get() {
      const bytes = readFileSync(file);
      Object.defineProperty(asset, field, {
        value: bytes,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return bytes;
    },
  });
}

/**
 * The built web app as a map from its listing: each file is read at the first request for it and
 * kept in memory from then on, so every later reply is a map lookup. Reading all 350 files at
 * start (most of them the admin's chunks and copies no browser asks for at once) took about 50 ms
 * of every start and their bytes stayed in memory whether asked for or not. The `.br`/`.gz`
 * copies build/build.mjs wrote are attached to their file (never served under their own path);
 * nothing is compressed here. A copy older than its file (the file was rewritten after the
 * build) is left out rather than served stale.
 */
export function loadWebAssets(dir: string): WebAssets {
  const assets: WebAssets = new Map();
  if (!existsSync(dir)) return assets;
  const variants: [string, 'br' | 'gz', string, number][] = [];
  const mtimes = new Map<string, number>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        walk(full);
        continue;
      }
      const path = `/${relative(dir, full).split(sep).join('/')}`;
      if (!isServedAsset(path)) continue;
      const mtime = statSync(full).mtimeMs;
      const variant = variantOf(path);
      if (variant) variants.push([...variant, full, mtime]);
      else {
        const asset = assetFor(path, new Uint8Array(0));
        readWhenAsked(asset, 'body', full);
        assets.set(path, asset);
        mtimes.set(path, mtime);
      }
    }
  };
  walk(dir);
  for (const [path, field, file, mtime] of variants) {
    const asset = assets.get(path);
    if (asset && mtime >= (mtimes.get(path) ?? Number.POSITIVE_INFINITY)) readWhenAsked(asset, field, file);
  }
  return assets;
}

/**
 * Builds the asset map from in-memory entries (the single binary embeds them). Entries named
 * like a precompressed copy ("/assets/main-AB.js.br") are attached to their file, as on disk.
 */
export function webAssetsFrom(entries: Iterable<[string, Uint8Array]>): WebAssets {
  const assets: WebAssets = new Map();
  const variants: [string, 'br' | 'gz', Uint8Array][] = [];
  for (const [path, body] of entries) {
    if (!isServedAsset(path)) continue;
    const variant = variantOf(path);
    if (variant) variants.push([...variant, body]);
    else assets.set(path, assetFor(path, body));
  }
  for (const [path, field, bytes] of variants) {
    const asset = assets.get(path);
    if (asset) asset[field] = bytes;
  }
  return assets;
}
