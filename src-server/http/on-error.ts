import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ERROR_MESSAGES } from '../contract/errors';
import { AppError } from './app-error';

/** The single error handler: every failure leaves in the contract's JSON shape. */
export function onError(err: Error, c: Context): Response {
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
  console.error(`[error] ${c.req.method} ${c.req.path}`, err);
  return c.json({ success: false, error: { code: 'internal', message: ERROR_MESSAGES.internal } }, 500);
}
