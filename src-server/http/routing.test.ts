import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.dispose();
});

const NOT_FOUND = {
  success: false,
  error: { code: 'route_not_found', message: 'This API route does not exist' },
};

describe('unknown API routes', () => {
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
  const paths = ['/api/nope', '/api/auth/nope', '/api/users/nope/deeper', '/api', '/api/', '/api/%E0%A4%A'];
  it.each(methods.flatMap((m) => paths.map((p) => [m, p])))(
    '%s %s is a JSON 404 route_not_found',
    async (method, path) => {
      const res = await t.call(method, path, method === 'GET' ? {} : { body: {} });
      expect(res.status).toBe(404);
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(res.body).toEqual(NOT_FOUND);
    },
  );

  it.each([
    ['GET', '/api/auth/login'],
    ['GET', '/api/auth/register'],
    ['DELETE', '/api/users/me'],
    ['POST', '/api/settings/nope'],
  ])(
    'a known path with a method it does not take (%s %s) is a JSON 404, never the web app',
    async (method, path) => {
      const res = await t.call(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    },
  );
});

describe('non-API paths', () => {
  it.each([
    ['POST', '/login'],
    ['PUT', '/tasks/abc'],
    ['DELETE', '/'],
  ])('%s %s (not a GET) is a JSON 404 route_not_found, not the web app', async (method, path) => {
    const res = await t.call(method, path, { body: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe('known API routes', () => {
  it('accept a trailing slash', async () => {
    const res = await t.call('GET', '/api/settings/');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it.each([
    ['a success', '/api/settings'],
    ['an error', '/api/users/me'],
    ['an unknown route', '/api/nope'],
  ])('answer %s with Cache-Control no-store', async (_label, path) => {
    const res = await t.call('GET', path);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
  });
});
