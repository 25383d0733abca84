import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { chooseEncoding } from './static';
import { loadWebAssets, webAssetsFrom } from './web-assets';

const INDEX =
  '<!doctype html><html><head><title>TaskReward app</title></head><body><div id="root"></div></body></html>';
const MAIN_JS = 'console.log("main");';
const enc = (s: string) => new TextEncoder().encode(s);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    web: webAssetsFrom([
      ['/index.html', enc(INDEX)],
      ['/assets/main-ABCDEFGH.js', enc(MAIN_JS)],
      ['/assets/style-1A2B3C4D.css', enc('body{}')],
      ['/favicon.ico', enc('ico')],
      ['/sw.js', enc('self.x=1')],
    ]),
  });
});
afterAll(async () => {
  await t.dispose();
});

describe('the web app fallback', () => {
  it.each([
    '/',
    '/index.html',
    '/some/client/route',
    '/admin/users/0123abcd',
    '/tasks/42?tab=proof',
    '/%E0%A4%A',
  ])('serves index.html for %s, not cached', async (path) => {
    const res = await t.call('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.headers.get('Cache-Control')).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it('answers HEAD for a client route', async () => {
    const res = await t.app.request('/some/client/route', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
  });

  it.each([
    ['/assets/main-ABCDEFGH.js', /^text\/javascript/, MAIN_JS],
    ['/assets/style-1A2B3C4D.css', /^text\/css/, 'body{}'],
  ])('serves the hashed asset %s cached for a year as immutable', async (path, type, body) => {
    const res = await t.call('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(type);
    expect(res.headers.get('Cache-Control')).toMatch(/max-age=31536000/);
    expect(res.headers.get('Cache-Control')).toMatch(/immutable/);
    expect(res.body).toBe(body);
  });

  it.each(['/favicon.ico', '/sw.js'])(
    'serves the unhashed file %s without immutable caching',
    async (path) => {
      const res = await t.call('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('Cache-Control')).toBe('no-cache');
    },
  );

  it.each(['/assets/x.js', '/assets/main-ABCDEFGH.js.map', '/assets/deep/main-ABCDEFGH.js'])(
    'answers a missing asset %s with 404 instead of index.html',
    async (path) => {
      const res = await t.call('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).not.toContain('TaskReward app');
    },
  );

  it('serves a placeholder page when the web app is not built', async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.call('GET', '/some/client/route');
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
      expect(res.body).toContain('npm run build');
    } finally {
      await bare.dispose();
    }
  });
});

describe('loadWebAssets', () => {
  it('reads a build folder and marks only hashed files under /assets as immutable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-web-'));
    try {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), INDEX);
      writeFileSync(join(dir, 'assets', 'main-ABCDEFGH.js'), MAIN_JS);
      writeFileSync(join(dir, 'assets', 'plain.js'), MAIN_JS);
      writeFileSync(join(dir, 'assets', 'main-ABCDEFGH.js.map'), '{"sources":["../src/secret.ts"]}');
      writeFileSync(join(dir, 'logo-ABCDEFGH.png'), 'png');
      const assets = loadWebAssets(dir);
      expect([...assets.keys()].sort()).toEqual([
        '/assets/main-ABCDEFGH.js',
        '/assets/plain.js',
        '/index.html',
        '/logo-ABCDEFGH.png',
      ]);
      expect(assets.get('/assets/main-ABCDEFGH.js')).toMatchObject({ immutable: true, type: /javascript/ });
      expect(assets.get('/assets/plain.js')?.immutable).toBe(false);
      expect(assets.get('/logo-ABCDEFGH.png')).toMatchObject({ immutable: false, type: 'image/png' });
      expect(assets.get('/index.html')).toMatchObject({ immutable: false, type: /^text\/html/ });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads each file when first asked, and a file gone by then is not found, not a server error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-web-'));
    let app: TestApp | undefined;
    try {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), INDEX);
      writeFileSync(join(dir, 'assets', 'main-ABCDEFGH.js'), MAIN_JS);
      writeFileSync(join(dir, 'assets', 'gone-ABCDEFGH.js'), MAIN_JS);
      const assets = loadWebAssets(dir);
      // nothing was read at load: what the file holds when first asked is what is served
      writeFileSync(join(dir, 'assets', 'main-ABCDEFGH.js'), 'console.log("rebuilt");');
      rmSync(join(dir, 'assets', 'gone-ABCDEFGH.js'));
      app = await createTestApp({ web: assets });
      const main = await app.app.request('/assets/main-ABCDEFGH.js');
      expect(main.status).toBe(200);
      expect(await main.text()).toBe('console.log("rebuilt");');
      // read once and kept: a later change on disk is not seen
      writeFileSync(join(dir, 'assets', 'main-ABCDEFGH.js'), 'console.log("again");');
      expect(await (await app.app.request('/assets/main-ABCDEFGH.js')).text()).toBe(
        'console.log("rebuilt");',
      );
      const gone = await app.app.request('/assets/gone-ABCDEFGH.js');
      expect(gone.status).toBe(404);
      rmSync(join(dir, 'index.html'));
      const page = await app.app.request('/tasks');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('not built');
    } finally {
      await app?.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives an empty map for a folder that does not exist', () => {
    expect(loadWebAssets(join(tmpdir(), 'taskreward-no-such-folder')).size).toBe(0);
  });

  it('never takes a source map, from a folder or from embedded entries', () => {
    const assets = webAssetsFrom([
      ['/assets/main-ABCDEFGH.js', enc(MAIN_JS)],
      ['/assets/main-ABCDEFGH.js.map', enc('{}')],
    ]);
    expect([...assets.keys()]).toEqual(['/assets/main-ABCDEFGH.js']);
  });
});

const BUILT_WEB = join(dirname(fileURLToPath(import.meta.url)), '../../dist/web');

describe.skipIf(!existsSync(join(BUILT_WEB, 'index.html')))('the production web build', () => {
  it('links no source map from its scripts and styles, and serves none', async () => {
    const assets = loadWebAssets(BUILT_WEB);
    const files = readdirSync(join(BUILT_WEB, 'assets'));
    const maps = files.filter((f) => f.endsWith('.map'));
    // the maps are written beside the bundles (for developers and the bench)...
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps) expect(assets.has(`/assets/${map}`)).toBe(false);
    // ...and no bundle points at them
    for (const [path, asset] of assets) {
      if (!/\.(js|css)$/.test(path)) continue;
      expect(new TextDecoder().decode(asset.body)).not.toMatch(/sourceMappingURL/);
    }
    const app = await createTestApp({ web: assets });
    try {
      const res = await app.call('GET', `/assets/${maps[0]}`);
      expect(res.status).toBe(404);
    } finally {
      await app.dispose();
    }
  });
});

// A page-sized script and an index.html, each with build-time copies as build/build.mjs writes them
const BIG_JS = `export const words = [${Array.from({ length: 400 }, (_, i) => `"word-${i % 37}-${i % 11}"`).join(',')}];`;
const BIG_INDEX = `<!doctype html><html lang="tr"><head><title>TaskReward packed</title></head><body>${'<p>x</p>'.repeat(200)}</body></html>`;
const BIG_JS_PATH = '/assets/main-PACKED12.js';
const packed = (s: string) => [enc(s), brotliCompressSync(enc(s)), gzipSync(enc(s))] as const;

describe('precompressed answers', () => {
  let p: TestApp;
  beforeAll(async () => {
    const [js, jsBr, jsGz] = packed(BIG_JS);
    const [html, htmlBr, htmlGz] = packed(BIG_INDEX);
    p = await createTestApp({
      web: webAssetsFrom([
        ['/index.html', html],
        ['/index.html.br', htmlBr],
        ['/index.html.gz', htmlGz],
        [BIG_JS_PATH, js],
        [`${BIG_JS_PATH}.br`, jsBr],
        [`${BIG_JS_PATH}.gz`, jsGz],
        ['/sw.js', enc(MAIN_JS)],
        ['/logo.png', enc('png')],
      ]),
    });
  });
  afterAll(async () => {
    await p.dispose();
  });

  const get = async (path: string, acceptEncoding?: string, method = 'GET') => {
    const res = await p.app.request(path, {
      method,
      headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding },
    });
    return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const decode = (bytes: Uint8Array, coding: string | null) =>
    new TextDecoder().decode(
      coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes,
    );

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['BR;Q=1', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['br, gzip;q=0', 'br'],
    ['*', 'br'],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, *;q=0.1', 'gzip'],
    ['*;q=0', null],
    ['br;q=0, gzip;q=0', null],
    ['br;q=0.000, gzip;q=0', null],
    ['deflate', null],
    ['identity', null],
    ['', null],
    [undefined, null],
  ])('Accept-Encoding %j gets %s, decoding to the original', async (header, coding) => {
    const { res, bytes } = await get(BIG_JS_PATH, header);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBe(coding);
    expect(res.headers.get('Vary')).toBe('Accept-Encoding');
    expect(res.headers.get('Content-Type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('Cache-Control')).toMatch(/immutable/);
    expect(bytes.length).toBeLessThan(coding ? BIG_JS.length / 2 : BIG_JS.length + 1);
    expect(decode(bytes, coding)).toBe(BIG_JS);
  });

  it.each(['/', '/index.html', '/some/client/route'])('sends index.html compressed for %s', async (path) => {
    for (const [header, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const { res, bytes } = await get(path, header);
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
      expect(res.headers.get('Cache-Control')).toBe('no-cache');
      expect(res.headers.get('Content-Encoding')).toBe(coding);
      expect(res.headers.get('Vary')).toBe('Accept-Encoding');
      expect(decode(bytes, coding)).toBe(BIG_INDEX);
    }
  });

  it.each([BIG_JS_PATH, '/', '/some/client/route'])(
    'answers HEAD %s with the same headers as GET',
    async (path) => {
      for (const header of ['gzip, deflate, br', 'gzip', 'identity']) {
        const head = await get(path, header, 'HEAD');
        const full = await get(path, header);
        expect(head.res.status).toBe(200);
        expect(head.bytes.length).toBe(0);
        // every reply carries its own request id; the rest must be the same
        const headers = (r: Response) => {
          const all = Object.fromEntries(r.headers);
          delete all['x-request-id'];
          return all;
        };
        expect(headers(head.res)).toEqual(headers(full.res));
      }
    },
  );

  it('sends a compressible file with no copy as it is (nothing is compressed per request), still with Vary', async () => {
    const { res, bytes } = await get('/sw.js', 'gzip, deflate, br');
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.headers.get('Vary')).toBe('Accept-Encoding');
    expect(new TextDecoder().decode(bytes)).toBe(MAIN_JS);
  });

  it('sends a file that is not text without Vary or Content-Encoding', async () => {
    const { res } = await get('/logo.png', 'gzip, deflate, br');
    expect(res.headers.get('Content-Type')).toBe('image/png');
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.headers.get('Vary')).toBeNull();
  });

  it('never serves a compressed copy under its own path', async () => {
    expect((await get(`${BIG_JS_PATH}.br`)).res.status).toBe(404);
    expect((await get(`${BIG_JS_PATH}.gz`)).res.status).toBe(404);
    // outside /assets an unknown path is a client route: index.html, not the copy
    const { res, bytes } = await get('/index.html.br', 'identity');
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(new TextDecoder().decode(bytes)).toBe(BIG_INDEX);
  });
});

describe('chooseEncoding', () => {
  it('offers only the copies there are', () => {
    expect(chooseEncoding('br, gzip', { br: false, gzip: true })).toBe('gzip');
    expect(chooseEncoding('br', { br: false, gzip: true })).toBeNull();
    expect(chooseEncoding('br, gzip', { br: false, gzip: false })).toBeNull();
    expect(chooseEncoding('gzip;q=abc, br;q=0', { br: true, gzip: true })).toBeNull();
  });
});

describe('webAssetsFrom and loadWebAssets with precompressed copies', () => {
  it('attaches .br and .gz copies to their file and lists them under no path of their own', () => {
    const assets = webAssetsFrom([
      ['/assets/a-ABCDEFGH.js', enc('a')],
      ['/assets/a-ABCDEFGH.js.br', enc('A-br')],
      ['/assets/a-ABCDEFGH.js.gz', enc('A-gz')],
      ['/assets/orphan-ABCDEFGH.css.br', enc('lost')],
      ['/backup.tar.gz', enc('tar')],
    ]);
    expect([...assets.keys()].sort()).toEqual(['/assets/a-ABCDEFGH.js', '/backup.tar.gz']);
    const a = assets.get('/assets/a-ABCDEFGH.js');
    expect(a && new TextDecoder().decode(a.br)).toBe('A-br');
    expect(a && new TextDecoder().decode(a.gz)).toBe('A-gz');
    expect(a?.compressible).toBe(true);
    expect(assets.get('/backup.tar.gz')?.compressible).toBe(false);
    expect(assets.get('/backup.tar.gz')?.br).toBeUndefined();
  });

  it('reads the copies from disk, compresses nothing at start and writes nothing, and drops a stale copy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-web-'));
    try {
      mkdirSync(join(dir, 'assets'));
      const [js, jsBr, jsGz] = packed(BIG_JS);
      writeFileSync(join(dir, 'index.html'), BIG_INDEX);
      writeFileSync(join(dir, 'assets', 'main-ABCDEFGH.js'), js);
      writeFileSync(join(dir, 'assets', 'main-ABCDEFGH.js.br'), jsBr);
      writeFileSync(join(dir, 'assets', 'main-ABCDEFGH.js.gz'), jsGz);
      writeFileSync(join(dir, 'sw.js'), BIG_JS);
      writeFileSync(join(dir, 'sw.js.br'), jsBr);
      // sw.js rewritten after its copy was made: the copy must not be served
      utimesSync(join(dir, 'sw.js.br'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      const before = readdirSync(dir, { recursive: true }).sort();

      const assets = loadWebAssets(dir);
      expect([...assets.keys()].sort()).toEqual(['/assets/main-ABCDEFGH.js', '/index.html', '/sw.js']);
      const main = assets.get('/assets/main-ABCDEFGH.js');
      expect(main?.br && Buffer.from(main.br).equals(jsBr)).toBe(true);
      expect(main?.gz && Buffer.from(main.gz).equals(jsGz)).toBe(true);
      // no copy on disk, none made: index.html has only its own bytes
      const index = assets.get('/index.html');
      expect(index?.compressible).toBe(true);
      expect([index?.br, index?.gz]).toEqual([undefined, undefined]);
      expect(assets.get('/sw.js')?.br).toBeUndefined();
      expect(readdirSync(dir, { recursive: true }).sort()).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The real build (node build/build.mjs): every text file over 1 KB, and index.html, has copies
const builtWeb = join(dirname(fileURLToPath(import.meta.url)), '../../dist/web');
describe.runIf(existsSync(join(builtWeb, 'index.html')))('the built web app in dist/web', () => {
  it('carries a brotli and a gzip copy of each text file over 1 KB that decode to it', () => {
    const assets = loadWebAssets(builtWeb);
    const text = [...assets].filter(
      ([path, a]) => a.compressible && (a.body.length > 1024 || path === '/index.html'),
    );
    expect(text.length).toBeGreaterThan(3);
    for (const [path, a] of text) {
      expect({ path, br: !!a.br, gz: !!a.gz }).toEqual({ path, br: true, gz: true });
      expect(Buffer.from(brotliDecompressSync(a.br as Uint8Array)).equals(a.body)).toBe(true);
      expect(Buffer.from(gunzipSync(a.gz as Uint8Array)).equals(a.body)).toBe(true);
    }
  });
});
