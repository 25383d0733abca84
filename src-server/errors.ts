import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERROR_MESSAGES, type ErrorCode } from './contract/errors';
import type { RuleProblem } from './contract/rules';

/** A failure with a status, a stable code and the English message of the contract. */
export class AppError extends Error {
  /**
   * Answer, then close the connection without reading the rest of the body: for a client that
   * keeps sending what is refused (an account flooding the image queue), reading every
   * refused upload to its end would cost the server more than the refusal saves.
   */
  closeConnection = false;

  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message ?? ERROR_MESSAGES[code]);
  }
}

/** The reason a banned account is shown when the admin who banned it wrote none. */
export const DEFAULT_BAN_REASON = 'Your account has been banned for violating the terms of use.';

/** Factories for the errors every feature throws. */
export const fail = {
  badRequest: (code: ErrorCode = 'bad_request', message?: string) => new AppError(400, code, message),
  validation: (errors: Record<string, string>) =>
    new AppError(422, 'validation_error', Object.values(errors)[0] ?? ERROR_MESSAGES.validation_error, {
      errors,
    }),
  invalid: (code: ErrorCode, field?: string, message?: string, extra: Record<string, unknown> = {}) => {
    const text = message ?? ERROR_MESSAGES[code];
    return new AppError(422, code, text, field ? { ...extra, errors: { [field]: text } } : extra);
  },
  /** the first broken rule of a body checked in order (contract/rules.ts), with its own code */
  rule: (problem: RuleProblem) =>
    new AppError(422, problem.code, problem.message, {
      errors: { [problem.field]: problem.message },
      ...problem.params,
    }),
  unauthorized: (code: ErrorCode = 'unauthorized') => new AppError(401, code),
  forbidden: (code: ErrorCode = 'forbidden', message?: string, extra?: Record<string, unknown>) =>
    new AppError(403, code, message, extra),
  /** the 403 a banned account gets for everything, carrying the reason */
  banned: (banReason: string | null) =>
    new AppError(403, 'banned', ERROR_MESSAGES.banned, { banReason: banReason || DEFAULT_BAN_REASON }),
  notFound: (code: ErrorCode = 'not_found') => new AppError(404, code),
  conflict: (code: ErrorCode, message?: string) => new AppError(409, code, message),
  tooLarge: (code: ErrorCode = 'payload_too_large') => new AppError(413, code),
  unsupported: (code: ErrorCode = 'unsupported_media_type') => new AppError(415, code),
  throttled: (retryAfterSeconds: number) =>
    new AppError(429, 'too_many_requests', undefined, { retryAfter: retryAfterSeconds }),
  /** the server's own capacity is used up (not this client's fault): try again shortly */
  busy: (retryAfterSeconds: number) =>
    new AppError(503, 'busy', undefined, { retryAfter: retryAfterSeconds }),
};
