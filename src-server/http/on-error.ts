import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ERROR_MESSAGES } from '../contract/errors';
import { BUSY_RETRY_AFTER_SECONDS, isBusyError } from '../db/database';
import { AppError } from './app-error';

/**
 * A refusal of a request that carries a body (a 401 or a 413 sent before an upload was read)
 * closes the connection: the adapter drops the unread rest and destroys the socket, so a
 * client reusing the connection for its next request would otherwise see it reset.
 */
function bodyMayBePending(c: Context): boolean {
  const length = Number(c.req.header('Content-Length') ?? 0);
  return length > 0 || c.req.header('Transfer-Encoding') !== undefined;
}

/** The single error handler: every failure leaves in the contract's JSON shape. */
export function onError(err: Error, c: Context): Response {
  const response = answer(err, c);
  if (response.status >= 400 && bodyMayBePending(c)) response.headers.set('Connection', 'close');
  return response;
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
  if (isBusyError(err)) {
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
  console.error(`[error] ${c.req.method} ${c.req.path}`, err);
  return c.json({ success: false, error: { code: 'internal', message: ERROR_MESSAGES.internal } }, 500);
}
