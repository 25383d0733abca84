import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/ids';
import { fail } from '../../http/app-error';
import { claimKey, findReply, type IdempotencyScope, storeReply } from './idempotency.repository';
import type { Tx } from './ledger';

/** What a money route answers: its status and the JSON text, first-hand or replayed. */
export interface MoneyReply {
  status: ContentfulStatusCode;
  body: string;
  replayed: boolean;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

/**
 * The scope of an `Idempotency-Key` request, or null without the header. The route part
 * holds the method, the path and a hash of the body, so a key reused for another request
 * is refused instead of answered with a reply that belongs to something else.
 */
export async function idempotencyScope(c: Context, userId: string): Promise<IdempotencyScope | null> {
  const key = c.req.header('Idempotency-Key');
  if (key === undefined) return null;
  if (!KEY_PATTERN.test(key)) throw fail.badRequest('invalid_idempotency_key');
  const body = await c.req.text();
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 32);
  return { userId, key, route: `${c.req.method} ${c.req.path} ${hash}` };
}

function replayOf(scope: IdempotencyScope, row: { route: string; status: number; body: string }): MoneyReply {
  if (row.route !== scope.route) throw fail.invalid('idempotency_key_reused');
  // only reachable on a database where another transaction holds the claim (PostgreSQL)
  if (row.status === 0) throw fail.conflict('idempotency_conflict');
  return { status: row.status as ContentfulStatusCode, body: row.body, replayed: true };
}

/**
 * Runs a money move in one transaction. With a scope, the key is claimed first inside the
 * transaction and the successful reply stored before the commit, so a replay (even a
 * concurrent one) gets the first reply and moves nothing. A failure stores nothing: it
 * moved nothing, and the client may correct the request and retry with the same key.
 */
export async function runMoneyMove<T>(
  db: Db,
  scope: IdempotencyScope | null,
  work: (tx: Tx) => Promise<{ status: ContentfulStatusCode; data: T }>,
): Promise<MoneyReply> {
  if (scope) {
    const earlier = await findReply(db, scope.userId, scope.key);
    if (earlier) return replayOf(scope, earlier);
  }
  return db.transaction().execute(async (tx) => {
    if (scope && !(await claimKey(tx, scope, nowIso()))) {
      const row = await findReply(tx, scope.userId, scope.key);
      if (row) return replayOf(scope, row);
      throw fail.conflict('idempotency_conflict');
    }
    const { status, data } = await work(tx);
    const body = JSON.stringify({ success: true, data });
    if (scope) await storeReply(tx, scope, status, body);
    return { status, body, replayed: false };
  });
}

/** Sends a MoneyReply, marking replays with `Idempotent-Replayed: true`. */
export function sendMoneyReply(c: Context, reply: MoneyReply): Response {
  if (reply.replayed) c.header('Idempotent-Replayed', 'true');
  c.header('Content-Type', 'application/json');
  return c.body(reply.body, reply.status);
}
