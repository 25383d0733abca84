import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './env';

function hasIncoming(env: unknown): env is { incoming: IncomingMessage } {
  return typeof env === 'object' && env !== null && 'incoming' in env;
}

/**
 * The client's address: the socket's, or behind a trusted proxy the last X-Forwarded-For
 * hop, the one the proxy itself appended. Earlier hops are whatever the client sent, so
 * trusting the first would let anyone pick an address and dodge the login throttle.
 */
export function clientIp(c: Context<AppEnv>): string {
  if (c.var.deps.config.trustProxy) {
    const forwarded = c.req.header('X-Forwarded-For')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return (hasIncoming(c.env) && c.env.incoming.socket.remoteAddress) || 'local';
}

/** Where a sign-in comes from, kept with its session: the address and the browser's name. */
export function signInOrigin(c: Context<AppEnv>): { ip: string; userAgent: string | undefined } {
  return { ip: clientIp(c), userAgent: c.req.header('User-Agent') };
}
