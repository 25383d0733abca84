import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';
import { answerClientError } from './client-error';

/** How long a client may take, in ms. */
export interface HttpTimeouts {
  /** to send the request line and headers (slow headers: a slowloris) */
  headersMs: number;
  /** to send the whole request: a 5 MB upload at about 350 kbit/s fits */
  requestMs: number;
  /** an idle keep-alive connection is closed after this */
  keepAliveMs: number;
  /** a connection on which nothing moves for this long is closed */
  idleMs: number;
  /** how often Node checks the two request timeouts */
  checkEveryMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 15_000,
  requestMs: 120_000,
  keepAliveMs: 5_000,
  idleMs: 30_000,
  checkEveryMs: 1_000,
};

/**
 * A refused request's unread body is read and thrown away, up to this many bytes, so the
 * client (a phone still uploading a 5 MB proof) reads our JSON answer instead of a reset.
 * A body larger than this is cut off.
 */
export const MAX_DISCARDED_BODY_BYTES = 8 * 1024 * 1024;

// Connections whose request was answered while its body still arrives: a request timeout
// there closes the connection without writing a second answer after the first.
const answered = new WeakSet<object>();

function headersSentOn(socket: Duplex): boolean {
  const message = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return message?.headersSent === true;
}

/**
 * Reads and throws away what is left of a request body once the answer went out, up to
 * MAX_DISCARDED_BODY_BYTES. Closing a socket with unread data makes the kernel send a reset,
 * which also discards our answer in the client's buffer: an upload refused before its body
 * was read (401, 403, 413, 415, 429) would reach the browser as a connection error.
 */
function discardUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    const socket = req.socket;
    answered.add(socket);
    // the next request on a kept-alive connection is a new one
    req.once('end', () => answered.delete(socket));
    // whatever was reading the body stops here: the fetch adapter's web stream over it (made when
    // a handler looked at the body, e.g. the JSON size limit refusing on the Content-Length)
    // pauses the request whenever its own queue is full and, with nobody reading that queue any
    // more, would hold the rest of the body unread, and the next request on the connection behind it
    req.unpipe();
    req.removeAllListeners('data');
    let discarded = 0;
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARDED_BODY_BYTES) req.socket.destroy();
    });
    req.resume();
  });
}

/**
 * Serves a fetch handler over Node's HTTP server with the timeouts above, the contract's JSON
 * answer to requests Node's parser refuses, and refused bodies read to the end (not reset).
 * The adapter's own clean-up of unread bodies is off: it resets the connection after 500 ms.
 */
export function serveApp(
  fetch: (request: Request, env: unknown) => Response | Promise<Response>,
  options: { port: number; hostname: string; timeouts?: Partial<HttpTimeouts> },
  onListen?: (info: AddressInfo) => void,
): Server {
  const timeouts = { ...HTTP_TIMEOUTS, ...options.timeouts };
  const server = serve(
    {
      fetch,
      port: options.port,
      hostname: options.hostname,
      autoCleanupIncoming: false,
      serverOptions: {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        connectionsCheckingInterval: timeouts.checkEveryMs,
      },
    },
    onListen,
  ) as Server;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.setTimeout(timeouts.idleMs);
  server.prependListener('request', discardUnreadBody);
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    if (answered.has(socket) || headersSentOn(socket)) socket.destroy();
    else answerClientError(err, socket);
  });
  return server;
}
