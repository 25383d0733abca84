import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../http/env';
import { log, type RequestLine, writeRequestLine } from './logger';
import { httpDuration, methodLabel, statusClass } from './metrics';

/** An incoming X-Request-Id is kept only when it is short and plain: it goes into every line. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

export interface RequestLogOptions {
  /** TRUST_PROXY: the proxy in front sets X-Request-Id; otherwise a client could pick its own. */
  trustProxy: boolean;
  /** Whether the request histogram is kept (only when something reads /metrics). */
  metrics: boolean;
}

/**
 * One line per request and its duration in the metrics. Only the route's pattern is logged and
 * counted, never the path or the query: paths carry ids (a series per id) and signed file links
 * carry their signatures in the query. Bodies and headers are never logged.
 */
export function requestLog(options: RequestLogOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = options.trustProxy ? c.req.header('X-Request-Id') : undefined;
    const reqId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.header('X-Request-Id', reqId);
    await next();
    // a handler that answers with its own Response object (a file, a stream) leaves the header out
    try {
      if (!c.res.headers.has('X-Request-Id')) c.res.headers.set('X-Request-Id', reqId);
    } catch {
      // a Response with immutable headers: the line still carries the id
    }
    const seconds = (performance.now() - started) / 1000;
    const status = c.res.status;
    // after next(): the index of the handler that answered, whose pattern this is
    const route = routePath(c) || 'unmatched';
    if (options.metrics) {
      httpDuration.observe(
        { method: methodLabel(c.req.method), route, status_class: statusClass(status) },
        seconds,
      );
    }
    const logger = log();
    const level = status >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const user = c.get('user') as { _id?: string } | undefined;
    // one shape for every line (userId absent, not a second object spread in)
    const line: RequestLine = {
      reqId,
      method: c.req.method,
      route,
      status,
      ms: Math.round(seconds * 10_000) / 10,
    };
    if (user?._id) line.userId = user._id;
    writeRequestLine(logger, level, line);
  };
}
