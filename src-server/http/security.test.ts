import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, fail } from '../errors';
import { captureLines, createLogger, log, setLogger } from '../observability/logger';
import { createTestApp, type TestApp } from '../testing/test-app';
import { onError } from './on-error';
import { securityHeaders } from './security';
import { webAssetsFrom } from './web-assets';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    web: webAssetsFrom([
      ['/index.html', new TextEncoder().encode('<!doctype html><title>app</title>')],
      ['/assets/main-ABCDEFGH.js', new TextEncoder().encode('1')],
    ]),
  });
});
afterAll(async () => {
  await t.dispose();
});

describe('security headers', () => {
  it.each<[string, string, string, { body?: unknown }?]>([
    ['an API success', 'GET', '/api/settings'],
    ['a 401', 'GET', '/api/users/me'],
    ['a 404 of the API', 'DELETE', '/api/nope'],
    ['a 400 of malformed JSON', 'POST', '/api/auth/login', { body: '{"email":' }],
    ['a 422', 'POST', '/api/auth/register', { body: {} }],
    ['the HTML of the web app', 'GET', '/'],
    ['the HTML of a client route', 'GET', '/admin/users'],
    ['a hashed asset', 'GET', '/assets/main-ABCDEFGH.js'],
    ['a missing asset', 'GET', '/assets/x.js'],
    ['a non-API POST', 'POST', '/not-api'],
  ])('are on %s', async (_label, method, path, options = {}) => {
    const res = await t.call(method, path, options);
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('X-Frame-Options')).toBe('DENY');
  });

  it('keep a stricter policy a route set itself', async () => {
    const app = new Hono();
    app.use('*', securityHeaders());
    app.get('/file', (c) => {
      c.header('Content-Security-Policy', "default-src 'none'; sandbox");
      return c.body('x');
    });
    const res = await app.request('/file');
    expect(res.headers.get('Content-Security-Policy')).toBe("default-src 'none'; sandbox");
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
  });
});

describe('onError', () => {
  function appThrowing(err: unknown) {
    const app = new Hono();
    app.onError(onError);
    app.use('*', securityHeaders());
    app.get('/', () => {
      throw err;
    });
    return app;
  }

  it.each([
    [
      'a validation error',
      fail.validation({ name: 'Name is required' }),
      422,
      {
        code: 'validation_error',
        message: 'Name is required',
        errors: { name: 'Name is required' },
      },
    ],
    [
      'a conflict',
      fail.conflict('email_in_use'),
      409,
      {
        code: 'email_in_use',
        message: 'This email address is already in use',
      },
    ],
    [
      'a ban',
      fail.forbidden('banned', undefined, { banReason: 'r' }),
      403,
      {
        code: 'banned',
        message: 'Your account has been banned',
        banReason: 'r',
      },
    ],
    [
      'an HTTPException 413',
      new HTTPException(413),
      413,
      {
        code: 'payload_too_large',
        message: 'The request is too large',
      },
    ],
    [
      'an HTTPException 401',
      new HTTPException(401),
      401,
      { code: 'unauthorized', message: expect.any(String) },
    ],
  ])('turns %s into the contract shape', async (_label, err, status, error) => {
    const res = await appThrowing(err).request('/');
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ success: false, error });
  });

  it('sends Retry-After with a throttled reply', async () => {
    const res = await appThrowing(fail.throttled(42)).request('/');
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('42');
    expect(await res.json()).toEqual({
      success: false,
      error: { code: 'too_many_requests', message: expect.any(String), retryAfter: 42 },
    });
  });

  it('hides an unexpected error behind a 500 internal, with the security headers, and logs it', async () => {
    const captured = captureLines();
    const before = log();
    setLogger(await createLogger({ level: 'info', format: 'json', node: 'test' }, captured.stream));
    try {
      const res = await appThrowing(new Error('SQLITE secret detail at /srv/data')).request('/');
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body).toEqual({
        success: false,
        error: { code: 'internal', message: 'An unexpected error occurred' },
      });
      expect(JSON.stringify(body)).not.toContain('secret');
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
      // the operator's copy has the error; the client's does not
      const line = captured.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unexpected error');
      expect(line?.err?.message).toBe('SQLITE secret detail at /srv/data');
    } finally {
      setLogger(before);
    }
  });

  it('keeps the AppError message its thrower chose', async () => {
    const res = await appThrowing(
      new AppError(422, 'below_minimum', 'The minimum payout amount is 20,00 ₺'),
    ).request('/');
    expect((await res.json()).error.message).toBe('The minimum payout amount is 20,00 ₺');
  });
});
