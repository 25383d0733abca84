import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sea from 'node:sea';
import { version } from '../../package.json';
import { type WebAssets, webAssetsFrom } from '../http/web-assets';

/** The SEA asset that lists the embedded web app's paths (Node 20 cannot list asset keys). */
export const WEB_INDEX_ASSET = 'web-index.json';
/** The prefix of every embedded web file's asset key ("web/assets/main-AB12.js"). */
export const WEB_ASSET_PREFIX = 'web';

/** Whether this process is the single binary (Node's single executable application). */
export function isSingleBinary(): boolean {
  try {
    return sea.isSea();
  } catch {
    return false;
  }
}

/**
 * The built web app carried inside the single binary, or null when not running as one. The
 * index lists the build-time `.br`/`.gz` copies too; webAssetsFrom attaches each to its file.
 */
export function embeddedWebAssets(): WebAssets | null {
  if (!isSingleBinary()) return null;
  const paths: unknown = JSON.parse(sea.getAsset(WEB_INDEX_ASSET, 'utf8'));
  if (!Array.isArray(paths)) throw new Error(`the embedded ${WEB_INDEX_ASSET} is not a list`);
  const entries: [string, Uint8Array][] = [];
  for (const path of paths) {
    if (typeof path !== 'string') continue;
    entries.push([path, new Uint8Array(sea.getAsset(`${WEB_ASSET_PREFIX}${path}`))]);
  }
  return webAssetsFrom(entries);
}

/**
 * Where the single binary unpacks its native modules: TASKREWARD_CACHE_DIR, else the user's
 * cache folder (XDG_CACHE_HOME or ~/.cache, ~/Library/Caches, %LOCALAPPDATA%), per version.
 */
export function nativeCacheDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.TASKREWARD_CACHE_DIR) return env.TASKREWARD_CACHE_DIR;
  let base: string;
  if (platform === 'win32') base = env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local');
  else if (platform === 'darwin') base = join(homedir(), 'Library', 'Caches');
  else base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'taskreward', version);
}

/**
 * Writes `bytes` as `name` into the cache (a folder per content hash, written under a temp
 * name and renamed, so a file that exists is complete) and returns its path. Falls back to
 * the system temp folder when the cache folder cannot be written.
 */
export function unpackToCache(name: string, bytes: Uint8Array, cacheDir = nativeCacheDir()): string {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const tryDir = (base: string): string => {
    const dir = join(base, hash);
    const file = join(dir, name);
    if (existsSync(file)) return file;
    mkdirSync(dir, { recursive: true });
    const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}`);
    try {
      writeFileSync(temp, bytes, { mode: 0o755 });
      renameSync(temp, file);
    } catch (err) {
      rmSync(temp, { force: true });
      if (!existsSync(file)) throw err;
    }
    return file;
  };
  try {
    return tryDir(cacheDir);
  } catch {
    return tryDir(join(tmpdir(), `taskreward-${version}`));
  }
}

/** Loads a native module embedded as a SEA asset: unpacked to the cache once, then dlopen'ed. */
export function loadEmbeddedAddon(asset: string): unknown {
  const file = unpackToCache(asset, new Uint8Array(sea.getAsset(asset)));
  const module = { exports: {} as unknown };
  process.dlopen(module, file);
  return module.exports;
}
