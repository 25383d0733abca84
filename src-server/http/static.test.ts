import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
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

  it('gives an empty map for a folder that does not exist', () => {
    expect(loadWebAssets(join(tmpdir(), 'taskreward-no-such-folder')).size).toBe(0);
  });
});
