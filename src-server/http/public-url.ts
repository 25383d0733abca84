import type { Context } from 'hono';
import type { AppEnv } from './env';

/**
 * The site's address for links in mails: PUBLIC_URL when set, else the address this request came
 * to (behind a trusted proxy, the scheme and host the proxy says it received). Without PUBLIC_URL a
 * request's Host decides where a link points, which is why the README asks for it.
 */
export function publicBase(c: Context<AppEnv>): string {
  const { config } = c.var.deps;
  if (config.publicUrl) return config.publicUrl;
  const url = new URL(c.req.url);
  if (config.trustProxy) {
    const proto = c.req.header('X-Forwarded-Proto')?.split(',').at(-1)?.trim();
    const host = c.req.header('X-Forwarded-Host')?.split(',').at(-1)?.trim();
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`;
    if (host && /^[A-Za-z0-9.-]+(:\d+)?$/.test(host)) url.host = host;
  }
  return url.origin;
}
