// Builds the desktop shell into dist/desktop: Electron's main process and the connection page's
// preload (CommonJS, electron external), the connection page itself.
//   node build/desktop.mjs          (npm run build:desktop)
// Packages: npm run build:binary && npm run build:desktop && npx electron-builder --config build/electron-builder.yml
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src-desktop');
const out = join(root, 'dist/desktop');
const started = Date.now();

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const node = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  external: ['electron'],
  sourcemap: true,
  logLevel: 'warning',
};
await Promise.all([
  esbuild.build({ ...node, entryPoints: [join(src, 'main.ts')], outfile: join(out, 'main.cjs') }),
  esbuild.build({ ...node, entryPoints: [join(src, 'preload.ts')], outfile: join(out, 'preload.cjs') }),
  esbuild.build({
    entryPoints: [join(src, 'connection-page.ts')],
    outfile: join(out, 'connection.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['chrome120'],
    logLevel: 'warning',
  }),
]);
for (const file of ['connection.html', 'connection.css']) copyFileSync(join(src, file), join(out, file));
console.log(`built dist/desktop in ${Date.now() - started} ms`);
