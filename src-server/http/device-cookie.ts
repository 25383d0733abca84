import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { DEVICE_TOKEN_DAYS, deviceCookieName, signDeviceToken } from '../features/users/token';
import type { AppEnv } from './env';

/** The only path the browser sends a device cookie to: the sign-in routes, nothing else. */
export const DEVICE_COOKIE_PATH = '/api/auth';

/** The device cookie the request carries for an account, if any (checked by the service). */
export function presentedDevice(c: Context<AppEnv>): (userId: string) => string | undefined {
  return (userId) => getCookie(c, deviceCookieName(userId, c.var.deps.secret));
}

/**
 * Whether the client reached us over HTTPS: the request's own scheme, or behind a trusted proxy
 * the scheme it reports. A Secure cookie sent over plain HTTP would be dropped by the browser.
 */
function overHttps(c: Context<AppEnv>): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (!c.var.deps.config.trustProxy) return false;
  return c.req.header('X-Forwarded-Proto')?.split(',').at(-1)?.trim().toLowerCase() === 'https';
}

/**
 * Sets this device's cookie for the account that just signed in (or registered): the owner's
 * known device from now on. HttpOnly, so scripts on the page cannot read it; SameSite=Strict and
 * the sign-in path only, so no other site's request and no other route carries it.
 */
export async function issueDeviceCookie(c: Context<AppEnv>, userId: string): Promise<void> {
  const { secret } = c.var.deps;
  setCookie(c, deviceCookieName(userId, secret), await signDeviceToken(userId, secret), {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    secure: overHttps(c),
    sameSite: 'Strict',
    maxAge: DEVICE_TOKEN_DAYS * 24 * 60 * 60,
  });
}
