import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../config';
import type { AppDeps } from '../deps';
import { clientIp } from './client-ip';
import type { AppEnv } from './env';

function appWith(trustProxy: boolean) {
  const app = new Hono<AppEnv>();
  const config = { ...readConfig({}), trustProxy };
  app.use('*', async (c, next) => {
    c.set('deps', { config } as AppDeps);
    await next();
  });
  app.get('/', (c) => c.text(clientIp(c)));
  return app;
}

const ipOf = async (app: Hono<AppEnv>, headers: Record<string, string>, env?: unknown) =>
  (await app.request('/', { headers }, env)).text();

describe('clientIp', () => {
  it('uses the socket address and ignores X-Forwarded-For without a trusted proxy', async () => {
    const env = { incoming: { socket: { remoteAddress: '10.0.0.5' } } };
    expect(await ipOf(appWith(false), { 'X-Forwarded-For': '203.0.113.1' }, env)).toBe('10.0.0.5');
  });

  it.each([
    ['a single hop', '203.0.113.1', '203.0.113.1'],
    ['a hop forged by the client before the real one', 'forged-1, 203.0.113.9', '203.0.113.9'],
    ['spaces around the hops', ' 1.1.1.1 ,  203.0.113.9  ', '203.0.113.9'],
  ])('behind a trusted proxy takes the hop the proxy appended: %s', async (_label, header, ip) => {
    expect(await ipOf(appWith(true), { 'X-Forwarded-For': header })).toBe(ip);
  });

  it('falls back to the socket address when a trusted proxy sent no header', async () => {
    const env = { incoming: { socket: { remoteAddress: '10.0.0.6' } } };
    expect(await ipOf(appWith(true), {}, env)).toBe('10.0.0.6');
  });
});
