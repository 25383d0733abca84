import type { Duplex } from 'node:stream';
import { ERROR_MESSAGES } from '../contract/errors';

/**
 * Node's parser refuses some requests before the app sees them (headers over 16 KB, broken
 * framing); its default answer is an empty 400 or 431. This one answers in the contract's
 * JSON shape instead, and closes the connection (its framing cannot be trusted any more).
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const code = status === 431 ? 'payload_too_large' : 'bad_request';
  const body = JSON.stringify({ success: false, error: { code, message: ERROR_MESSAGES[code] } });
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
