// The native parts the single binary carries (build/binary.mjs reads this list).
//
// Each entry names the files to embed, as paths under node_modules, and the module through which
// its package loads them (`module`, required from a file matching `importer`). In the binary's
// bundle that module is replaced by a stand-in (`standIn`, CommonJS) that loads the embedded copy
// through `load(file)`, the runtime's loadEmbeddedAddon (src-server/cli/embedded.ts).
//
// At run time every file of every entry is unpacked together into one cache folder, at the same
// path it had under node_modules, before the first addon is loaded: an addon that finds a shared
// library by a relative path (sharp's `@img/sharp-<platform>` links `@img/sharp-libvips-<platform>`
// that way) finds it there too. To carry another package, add its files and its loader here.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { SHARP_WASM_ENTRY } from './sharp-wasm.mjs';

const require = createRequire(import.meta.url);

/** `file`'s path under its node_modules folder ("argon2/prebuilds/linux-x64/argon2.glibc.node"). */
export function underNodeModules(file) {
  const marker = `node_modules${sep}`;
  const at = file.lastIndexOf(marker);
  if (at < 0) throw new Error(`${file} is not in a node_modules folder`);
  return file
    .slice(at + marker.length)
    .split(sep)
    .join('/');
}

const packageDir = (name) => dirname(require.resolve(`${name}/package.json`));

/** better-sqlite3 13 loads a node-gyp build when there is one, else its prebuild (lib/binding.js). */
function betterSqlite3Addon() {
  const dir = packageDir('better-sqlite3');
  const built = join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(built)) return built;
  const prebuilt = require(join(dir, 'lib', 'binding.js')).getPrebuildPath();
  if (!prebuilt) throw new Error('better-sqlite3 has no addon for this platform: npm rebuild better-sqlite3');
  return prebuilt;
}

/** argon2 picks its prebuild (or a node-gyp build) through node-gyp-build. */
function argon2Addon() {
  return require('node-gyp-build').resolve(packageDir('argon2'));
}

/**
 * sharp's addon (@img/sharp-<platform>/lib/sharp-<platform>-<version>.node) and the libvips it
 * links by a relative rpath ($ORIGIN/../../sharp-libvips-<platform>/lib): both unpacked together.
 */
function sharpFiles() {
  const platform = `${process.platform}${process.platform === 'linux' && isMusl() ? 'musl' : ''}-${process.arch}`;
  const imgDir = (name) => dirname(require.resolve(`${name}/package`));
  const addonDir = join(imgDir(`@img/sharp-${platform}`), 'lib');
  const addon = readdirSync(addonDir).find((f) => f.endsWith('.node'));
  if (!addon) throw new Error(`@img/sharp-${platform} has no addon: npm ci`);
  const files = [join(addonDir, addon)];
  if (process.platform !== 'win32') {
    const vipsDir = join(imgDir(`@img/sharp-libvips-${platform}`), 'lib');
    for (const f of readdirSync(vipsDir)) if (/^libvips.*\.(so|dylib)/.test(f)) files.push(join(vipsDir, f));
  }
  return files;
}

function isMusl() {
  const report = process.report?.getReport?.();
  return !report?.header?.glibcVersionRuntime;
}

/** @returns {{ files: string[], module: RegExp, importer: RegExp, standIn: (files: string[]) => string }[]} */
export function nativeParts() {
  return [
    {
      files: [betterSqlite3Addon()],
      module: /^\.\/binding$/,
      importer: /[\\/]better-sqlite3[\\/]lib[\\/]/,
      standIn: ([addon]) => `exports.getBinding = () => load(${JSON.stringify(underNodeModules(addon))});`,
    },
    {
      files: [argon2Addon()],
      module: /^node-gyp-build$/,
      importer: /[\\/]argon2[\\/]/,
      standIn: ([addon]) => `module.exports = () => load(${JSON.stringify(underNodeModules(addon))});`,
    },
    {
      // sharp's dist/sharp.[cm]js picks its addon for the platform; in the binary it is the embedded one
      files: sharpFiles(),
      module: /^\.\/sharp\.[cm]js$/,
      importer: /[\\/]sharp[\\/]dist[\\/]/,
      // the WebAssembly build is the fallback (build/sea/sharp-wasm.mjs, added by build/binary.mjs)
      standIn: ([addon]) =>
        `module.exports = require('./src-server/cli/embedded.ts').loadSharpBinding(${JSON.stringify(underNodeModules(addon))}, ${JSON.stringify(SHARP_WASM_ENTRY)});`,
    },
  ];
}
