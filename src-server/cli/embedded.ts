import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import * as sea from 'node:sea';
import { version } from '../../package.json';
import { type WebAssets, webAssetsFrom } from '../http/web-assets';
import { isSingleBinary } from './is-single-binary';

/** The prefix of every embedded web file's asset key ("web/assets/main-AB12.js"). */
export const WEB_ASSET_PREFIX = 'web/';
/** The SEA asset listing the embedded native files and the id of their set (build/binary.mjs). */
export const NATIVE_INDEX_ASSET = 'native.json';
/** The prefix of every embedded native file's asset key ("native/argon2/prebuilds/…/argon2.glibc.node"). */
export const NATIVE_ASSET_PREFIX = 'native/';

/**
 * The built web app carried inside the single binary, or null when not running as one. The
 * assets include the build-time `.br`/`.gz` copies; webAssetsFrom attaches each to its file.
 */
export function embeddedWebAssets(): WebAssets | null {
  if (!isSingleBinary()) return null;
  const entries: [string, Uint8Array][] = [];
  for (const key of sea.getAssetKeys()) {
    if (!key.startsWith(WEB_ASSET_PREFIX)) continue;
    // the raw asset is a view of the binary's own bytes, not a copy: nothing is copied at start
    // and a page of it takes memory only once it is sent (the server only ever reads these)
    entries.push([key.slice(WEB_ASSET_PREFIX.length - 1), new Uint8Array(sea.getRawAsset(key))]);
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

/** Writes a file once: under a temp name, then renamed, so a file that exists is complete. */
function writeOnce(file: string, bytes: () => Uint8Array): void {
  if (existsSync(file)) return;
  mkdirSync(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(temp, bytes(), { mode: 0o755 });
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    if (!existsSync(file)) throw err;
  }
}

/**
 * Writes every file of `files` (paths under node_modules, read by `read`) into
 * `cacheDir/<id>/`, keeping their paths, and returns that folder. Falls back to the system
 * temp folder when the cache folder cannot be written.
 */
export function unpackToCache(
  id: string,
  files: readonly string[],
  read: (file: string) => Uint8Array,
  cacheDir = nativeCacheDir(),
): string {
  const tryDir = (base: string): string => {
    const dir = join(base, id);
    for (const file of files) {
      const target = join(dir, ...file.split('/'));
      if (relative(dir, target).startsWith('..')) throw new Error(`${file} leaves the cache folder`);
      writeOnce(target, () => read(file));
    }
    return dir;
  };
  try {
    return tryDir(cacheDir);
  } catch {
    return tryDir(join(tmpdir(), `taskreward-${version}`));
  }
}

let nativeDir: string | null = null;

/**
 * Loads a native addon embedded as a SEA asset (`file`, its path under node_modules). The
 * first call unpacks every embedded native file together (build/sea/native.mjs), so an addon
 * finds a library beside it; then each addon is dlopen'ed from there.
 */
export function loadEmbeddedAddon(file: string): unknown {
  const module = { exports: {} as unknown };
  process.dlopen(module, join(unpackedNative(), ...file.split('/')));
  return module.exports;
}

function unpackedNative(): string {
  if (nativeDir === null) {
    const index = JSON.parse(sea.getAsset(NATIVE_INDEX_ASSET, 'utf8')) as { id: string; files: string[] };
    nativeDir = unpackToCache(
      index.id,
      index.files,
      (name) => new Uint8Array(sea.getAsset(`${NATIVE_ASSET_PREFIX}${name}`)),
    );
  }
  return nativeDir;
}

/**
 * Loads an embedded CommonJS file from the unpacked set (sharp's WebAssembly build and the
 * runtime it requires, under node_modules/ there so Node's resolution finds one from the other).
 */
export function loadEmbeddedScript(file: string): unknown {
  const path = join(unpackedNative(), ...file.split('/'));
  return createRequire(path)(path);
}

/**
 * sharp's binding in the binary: the native addon, or, when it cannot load (an old CPU, another
 * libc) or TASKREWARD_SHARP=wasm asks for it, the WebAssembly build, said in the log.
 */
export function loadSharpBinding(nativeAddon: string, wasmEntry: string, env = process.env): unknown {
  if (env.TASKREWARD_SHARP === 'wasm') {
    console.warn(
      '[images] TASKREWARD_SHARP=wasm: sharp runs its WebAssembly build (slower than the native one)',
    );
    return loadEmbeddedScript(wasmEntry);
  }
  try {
    return loadEmbeddedAddon(nativeAddon);
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    console.warn(
      `[images] sharp's native build could not load (${reason}): using its WebAssembly build instead (slower)`,
    );
    return loadEmbeddedScript(wasmEntry);
  }
}
