import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './env';

function hasIncoming(env: unknown): env is { incoming: IncomingMessage } {
  return typeof env === 'object' && env !== null && 'incoming' in env;
}

/** The client's address: the socket's, or the first X-Forwarded-For hop behind a trusted proxy. */
export function clientIp(c: Context<AppEnv>): string {
  if (c.var.deps.config.trustProxy) {
    const forwarded = c.req.header('X-Forwarded-For')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return (hasIncoming(c.env) && c.env.incoming.socket.remoteAddress) || 'local';
}
