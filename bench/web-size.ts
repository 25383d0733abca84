// The web app's weight: the JavaScript and CSS the landing page (/) and the task list (/tasks)
// actually load, opened cold in Chromium (playwright-core) against the real built server, and
// that no admin code is among them. Sizes are each file compressed (gzip level 9, brotli
// quality 11), as a compressing proxy would send them; `jsRaw`/`cssRaw` are the bytes this
// server itself sends (it does not compress). Admin chunks are the built files whose source map
// lists a module under src-web/features/admin or src-web/components/admin.
//   node dist/bench/web-size.cjs   (or through bench/run.ts)
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { freshDataDir, startServerProcess } from '../faults/server';

export interface PageWeight {
  /** Sum over the loaded .js files of each one gzipped (level 9), bytes. */
  jsGzip: number;
  cssGzip: number;
  jsBrotli?: number;
  cssBrotli?: number;
  /** Bytes as this server sends them (uncompressed). */
  jsRaw?: number;
  cssRaw?: number;
  /** The URL paths of the .js and .css files loaded, in order. */
  files: string[];
}

export interface WebSize {
  landing: PageWeight;
  taskList: PageWeight;
  /** No file loaded by either page is an admin chunk, and the build has admin chunks to keep out. */
  adminKeptOut: boolean;
  /** The built admin chunks (URL paths). */
  adminFiles: string[];
  /** Admin chunks that either page loaded (empty when adminKeptOut). */
  adminLoaded?: string[];
}

export interface WebSizeOptions {
  quick?: boolean;
  /** The built web app (default dist/web). */
  webDir?: string;
}

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ADMIN_SOURCE = /(^|\/)src-web\/(features|components)\/admin\//;

/** The built .js files whose source map names an admin module, as URL paths ("/assets/chunk-X.js"). */
export function adminChunks(webDir: string): string[] {
  const assets = join(webDir, 'assets');
  const found: string[] = [];
  for (const name of readdirSync(assets)) {
    if (!name.endsWith('.js') || !existsSync(join(assets, `${name}.map`))) continue;
    const map = JSON.parse(readFileSync(join(assets, `${name}.map`), 'utf8')) as { sources?: string[] };
    if (map.sources?.some((s) => ADMIN_SOURCE.test(s))) found.push(`/assets/${name}`);
  }
  return found.sort();
}

function weigh(files: Map<string, Buffer>): PageWeight {
  const w = {
    jsGzip: 0,
    cssGzip: 0,
    jsBrotli: 0,
    cssBrotli: 0,
    jsRaw: 0,
    cssRaw: 0,
    files: [...files.keys()],
  };
  for (const [path, body] of files) {
    const gzip = gzipSync(body, { level: 9 }).length;
    const brotli = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }).length;
    if (path.endsWith('.css')) {
      w.cssGzip += gzip;
      w.cssBrotli += brotli;
      w.cssRaw += body.length;
    } else {
      w.jsGzip += gzip;
      w.jsBrotli += brotli;
      w.jsRaw += body.length;
    }
  }
  return w;
}

export async function measureWebSize(opts: WebSizeOptions = {}): Promise<WebSize> {
  const webDir = resolve(opts.webDir ?? 'dist/web');
  if (!existsSync(join(webDir, 'index.html')))
    throw new Error(`no ${webDir}/index.html: run node build/build.mjs`);
  const adminFiles = adminChunks(webDir);
  const dataDir = freshDataDir('taskreward-websize-');
  const server = await startServerProcess({ dataDir });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    /** Opens `path` in a fresh context (cold cache, no service worker) and keeps every .js and .css. */
    const load = async (path: string, ready: string) => {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      try {
        const page = await context.newPage();
        const files = new Map<string, Buffer>();
        const pending: Promise<void>[] = [];
        const failed: string[] = [];
        page.on('response', (res) => {
          const url = new URL(res.url());
          if (url.origin !== new URL(server.url).origin || !/\.(js|css)$/.test(url.pathname)) return;
          if (res.status() !== 200) failed.push(`${url.pathname}: ${res.status()}`);
          pending.push(
            res.body().then((body) => {
              files.set(url.pathname, body);
            }),
          );
        });
        await page.goto(new URL(path, server.url).href, { waitUntil: 'networkidle' });
        await page.waitForSelector(ready, { timeout: 15_000 });
        await page.waitForLoadState('networkidle');
        await Promise.all(pending);
        if (failed.length) throw new Error(`${path} failed to load ${failed.join(', ')}`);
        return weigh(files);
      } finally {
        await context.close();
      }
    };
    // the landing page and the task list render their main content: whatever they load by then counts
    const landing = await load('/', 'main, #root > *');
    const taskList = await load('/tasks', 'main, #root > *');
    const loaded = new Set([...landing.files, ...taskList.files]);
    const adminLoaded = adminFiles.filter((f) => loaded.has(f));
    return {
      landing,
      taskList,
      adminKeptOut: adminFiles.length > 0 && adminLoaded.length === 0,
      adminFiles,
      adminLoaded,
    };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const kb = (n = 0) => `${(n / 1024).toFixed(1)} KB`;
const line = (name: string, w: PageWeight) =>
  `${name}: JS ${kb(w.jsGzip)} gzip (${kb(w.jsBrotli)} brotli, ${kb(w.jsRaw)} sent), CSS ${kb(w.cssGzip)} gzip (${kb(w.cssRaw)} sent), ${w.files.length} files`;

export function formatWebSize(s: WebSize): string {
  return [
    line('landing /', s.landing),
    line('task list /tasks', s.taskList),
    `admin chunks kept out: ${s.adminKeptOut ? 'yes' : 'NO'} (${s.adminFiles.length} admin chunks${s.adminLoaded?.length ? `; loaded: ${s.adminLoaded.join(', ')}` : ''})`,
  ].join('\n');
}

if (/web-size\.(c?js|ts)$/.test(process.argv[1] ?? '')) {
  measureWebSize({ quick: process.argv.includes('--quick') }).then(
    (s) => {
      console.log(formatWebSize(s));
      if (process.argv.includes('--files'))
        console.log(JSON.stringify({ landing: s.landing.files, taskList: s.taskList.files }, null, 2));
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
