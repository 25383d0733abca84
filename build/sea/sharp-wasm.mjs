// sharp's WebAssembly build, carried by the single binary as its fallback: where the
// native addon cannot load (an old CPU, another libc) the binary uses this one and says so.
// npm does not install @img/sharp-wasm32 on x64 (its package is for the "wasm32" CPU), so the
// build fetches it, and the @emnapi/runtime it requires, from the registry with `npm pack`, once
// per version, into build/.cache. Their files are embedded under node_modules/ paths: unpacked in
// the cache folder, the wasm loader finds @emnapi/runtime by Node's own resolution.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const cacheRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '.cache', 'sharp-wasm');

/** The entry the binary's sharp stand-in loads when the native addon does not. */
export const SHARP_WASM_ENTRY = 'node_modules/@img/sharp-wasm32/index.cjs';

function fetchPackage(spec, into) {
  if (existsSync(join(into, 'package.json'))) return;
  const temp = `${into}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', spec, '--pack-destination', temp, '--silent'], { encoding: 'utf8' });
  const tarball = join(temp, out.trim().split('\n').pop());
  execFileSync('tar', ['xzf', tarball, '-C', temp]);
  mkdirSync(dirname(into), { recursive: true });
  rmSync(into, { recursive: true, force: true });
  renameSync(join(temp, 'package'), into);
  rmSync(temp, { recursive: true, force: true });
}

function filesOf(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** [name under the cache folder, file] of the wasm build and its runtime, fetched if needed. */
export function sharpWasmFiles() {
  // sharp exports no package.json: read it beside its entry
  const sharpDir = dirname(dirname(require.resolve('sharp')));
  const version = JSON.parse(readFileSync(join(sharpDir, 'package.json'), 'utf8')).version;
  const base = join(cacheRoot, version, 'node_modules');
  const wasmDir = join(base, '@img', 'sharp-wasm32');
  fetchPackage(`@img/sharp-wasm32@${version}`, wasmDir);
  const { dependencies } = JSON.parse(readFileSync(join(wasmDir, 'package.json'), 'utf8'));
  fetchPackage(`@emnapi/runtime@${dependencies['@emnapi/runtime']}`, join(base, '@emnapi', 'runtime'));
  const root = join(cacheRoot, version);
  return [...filesOf(wasmDir), ...filesOf(join(base, '@emnapi', 'runtime'))].map((file) => [
    relative(root, file).split(sep).join('/'),
    file,
  ]);
}
