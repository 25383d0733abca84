import type { Duplex } from 'node:stream';
import { ERROR_MESSAGES } from '../contract/errors';

const ANSWERS = {
  400: { code: 'bad_request', reason: 'Bad Request' },
  408: { code: 'request_timeout', reason: 'Request Timeout' },
  431: { code: 'payload_too_large', reason: 'Request Header Fields Too Large' },
} as const;

/**
 * Node's parser refuses some requests before the app sees them (headers over 16 KB, broken
 * framing, headers or a body too slow to arrive); its default answer is an empty 400, 408 or
 * 431. This one answers in the contract's JSON shape instead, and closes the connection (its
 * framing cannot be trusted any more).
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const { code, reason } = ANSWERS[status];
  const body = JSON.stringify({ success: false, error: { code, message: ERROR_MESSAGES[code] } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
