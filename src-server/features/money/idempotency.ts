import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { envelope } from '../../contract/envelope';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/ids';
import { fail } from '../../errors';
import {
  claimKey,
  findReply,
  type IdempotencyScope,
  releaseClaim,
  storeReply,
  takeOverClaim,
} from './idempotency.repository';
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
  // the first request still running: a bulk run between its claim and its reply
  if (row.status === 0) throw fail.conflict('idempotency_conflict');
  return { status: row.status as ContentfulStatusCode, body: row.body, replayed: true };
}

/**
 * Claims the scope's key inside `tx`, or answers from the row already holding it: the first reply
 * for the same request, 422 `idempotency_key_reused` for another request (method, path or body),
 * 409 `idempotency_conflict` while the first is still running. Null when this request holds the
 * claim. A claim left running since before `staleBefore` (its node died under it) is taken over.
 */
async function claimOrReplay(
  tx: Tx,
  scope: IdempotencyScope,
  now: string,
  staleBefore?: string,
): Promise<MoneyReply | null> {
  if (await claimKey(tx, scope, now)) return null;
  const row = await findReply(tx, scope.userId, scope.key);
  if (!row) throw fail.conflict('idempotency_conflict');
  if (
    row.route === scope.route &&
    row.status === 0 &&
    staleBefore !== undefined &&
    row.created_at < staleBefore &&
    (await takeOverClaim(tx, scope, row.created_at, now))
  )
    return null;
  return replayOf(scope, row);
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
    const replay = scope ? await claimOrReplay(tx, scope, nowIso()) : null;
    if (replay) return replay;
    const { status, data } = await work(tx);
    const body = JSON.stringify(envelope(data));
    if (scope) await storeReply(tx, scope, status, body);
    return { status, body, replayed: false };
  });
}

/**
 * How long a claim of a many-transaction run (runClaimed) stands without its reply before a
 * request with the same key may take it over: far longer than the largest bulk review takes.
 */
export const CLAIM_LEASE_MS = 10 * 60_000;

/**
 * Runs keyed work made of many money moves of their own (the bulk reviews, each item in its own
 * transaction), so the key cannot be claimed inside one transaction with the work. The claim is
 * committed first, the same way runMoneyMove claims (so a concurrent request with the key, on any
 * node, is refused or replayed before any of the work runs), then the reply stored over it. A
 * failure releases the claim, as a failed runMoneyMove stores nothing. The work must be safe to
 * run again after a crash: a claim older than CLAIM_LEASE_MS without its reply is taken over.
 */
export async function runClaimed<T>(
  db: Db,
  scope: IdempotencyScope | null,
  clock: () => Date,
  work: () => Promise<{ status: ContentfulStatusCode; data: T }>,
): Promise<MoneyReply> {
  if (scope) {
    const earlier = await findReply(db, scope.userId, scope.key);
    if (earlier?.status) return replayOf(scope, earlier);
    const now = clock();
    const staleBefore = new Date(now.getTime() - CLAIM_LEASE_MS).toISOString();
    const replay = await db
      .transaction()
      .execute((tx) => claimOrReplay(tx, scope, now.toISOString(), staleBefore));
    if (replay) return replay;
  }
  let reply: { status: ContentfulStatusCode; data: T };
  try {
    reply = await work();
  } catch (err) {
    if (scope) await releaseClaim(db, scope);
    throw err;
  }
  const body = JSON.stringify(envelope(reply.data));
  if (scope) await storeReply(db, scope, reply.status, body);
  return { status: reply.status, body, replayed: false };
}

/** Sends a MoneyReply, marking replays with `Idempotent-Replayed: true`. */
export function sendMoneyReply(c: Context, reply: MoneyReply): Response {
  if (reply.replayed) c.header('Idempotent-Replayed', 'true');
  c.header('Content-Type', 'application/json');
  return c.body(reply.body, reply.status);
}
