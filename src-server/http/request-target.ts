import type { MiddlewareHandler } from 'hono';
import { fail } from '../errors';

/**
 * Refuses an absolute-form request target carrying credentials (`GET http://u:p@host/...`):
 * the Fetch API cannot build a Request from such a URL, so reading the body or headers of one
 * threw a TypeError (a 500). Found by the hostile-input suite (faults/hostile.fault.ts).
 */
export const rejectCredentialsInUrl: MiddlewareHandler = async (c, next) => {
  // credentials need an "@": every other request skips parsing its URL again
  if (!c.req.url.includes('@')) return next();
  let url: URL | null = null;
  try {
    url = new URL(c.req.url);
  } catch {
    // an unparsable URL is the node adapter's 400; nothing to check here
  }
  if (url && (url.username !== '' || url.password !== '')) throw fail.badRequest();
  await next();
};
