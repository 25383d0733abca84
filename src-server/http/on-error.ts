import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import { ERROR_MESSAGES } from '../contract/errors';
import { BUSY_RETRY_AFTER_SECONDS, isBusyError } from '../db/database';
import { isUnstorableText } from '../db/errors';
import { AppError } from '../errors';
import { log } from '../observability/logger';
import { dbBusyRefusals } from '../observability/metrics';
import { holdRefusal } from './held-refusal';
import { MAX_DISCARDED_BODY_BYTES } from './node-server';

/**
 * A refusal of a request whose declared body is more than the server reads and throws away
 * closes the connection: the rest is cut off (node-server.ts), so the connection cannot be
 * reused. Smaller bodies are read to the end and the connection stays open.
 */
function bodyTooLargeToDiscard(c: Context): boolean {
  return Number(c.req.header('Content-Length') ?? 0) > MAX_DISCARDED_BODY_BYTES;
}

/**
 * The single error handler: every failure leaves in the contract's JSON shape. A flooding key's
 * refusal (closeConnection) is held a moment before it is sent (held-refusal.ts).
 */
export function onError(err: Error, c: Context): Response | Promise<Response> {
  const response = answer(err, c);
  const cut = err instanceof AppError && err.closeConnection;
  if (response.status >= 400 && (cut || bodyTooLargeToDiscard(c)))
    response.headers.set('Connection', 'close');
  return cut ? holdRefusal(response) : response;
}

function answer(err: Error, c: Context): Response {
  if (err instanceof AppError) {
    const { errors, retryAfter, ...rest } = err.extra;
    if (typeof retryAfter === 'number') c.header('Retry-After', String(retryAfter));
    return c.json(
      {
        success: false,
        error: {
          code: err.code,
          message: err.message,
          ...(errors ? { errors } : {}),
          ...(typeof retryAfter === 'number' ? { retryAfter } : {}),
          ...rest,
        },
      },
      err.status,
    );
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const code = status === 413 ? 'payload_too_large' : status === 401 ? 'unauthorized' : 'bad_request';
    return c.json({ success: false, error: { code, message: ERROR_MESSAGES[code] } }, status);
  }
  if (isUnstorableText(err)) {
    // a NUL character the database cannot hold (PostgreSQL): malformed input, nothing written
    return c.json(
      { success: false, error: { code: 'bad_request', message: ERROR_MESSAGES.bad_request } },
      400,
    );
  }
  if (isBusyError(err)) {
    dbBusyRefusals.inc();
    // another process holds SQLite's write lock: nothing was written, the client may retry
    c.header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
    return c.json(
      {
        success: false,
        error: { code: 'busy', message: ERROR_MESSAGES.busy, retryAfter: BUSY_RETRY_AFTER_SECONDS },
      },
      503,
    );
  }
  // the route's pattern, not the path: a path can carry a signed link's query or an id
  log().error({ err, method: c.req.method, route: routePath(c) }, 'unexpected error');
  return c.json({ success: false, error: { code: 'internal', message: ERROR_MESSAGES.internal } }, 500);
}
