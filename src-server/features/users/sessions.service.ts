import { randomBytes } from 'node:crypto';
import type { SessionDto } from '../../contract/sessions';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOf,
  holdSessionsOf,
  insertSession,
  liveSessions,
  restampSession,
  sessionExists,
} from './sessions.repository';
import { passwordStamp, signToken } from './token';
import type { UserRow } from './users.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'secret'>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** A session lasts as long as its token: 30 days with remember-me, else one. */
export const sessionLifetimeMs = (rememberMe: boolean) => (rememberMe ? 30 : 1) * DAY_MS;

/** What the request that signs in says of itself, kept with the session to show its owner. */
export interface SignInOrigin {
  ip: string;
  userAgent: string | undefined;
}

/** The longest user agent kept: enough to tell browsers apart, not a place to store a body. */
const USER_AGENT_MAX = 300;

/**
 * A new session of the user and its token. Every sign-in (login, registration, the setup link)
 * goes through here: the token is good only while its row lasts.
 */
export async function startSession(
  deps: Deps,
  user: UserRow,
  rememberMe: boolean,
  origin: SignInOrigin,
): Promise<{ token: string; sessionId: string }> {
  const now = deps.clock();
  const id = randomBytes(16).toString('hex');
  await insertSession(deps.db, {
    id,
    user_id: user._id,
    password_stamp: passwordStamp(user.password_hash, deps.secret),
    remember: rememberMe ? 1 : 0,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + sessionLifetimeMs(rememberMe)).toISOString(),
    // an in-process call has no address ('local'): nothing to show
    ip: origin.ip === 'local' ? null : origin.ip.slice(0, 100),
    user_agent: origin.userAgent ? origin.userAgent.slice(0, USER_AGENT_MAX) : null,
  });
  return { token: await signToken(user, rememberMe, deps.secret, id), sessionId: id };
}

/**
 * After the user changed their own password from a session: that session carries on under the
 * new password with a fresh token, every other one ends.
 */
export async function keepSessionAfterPasswordChange(
  deps: Deps,
  user: UserRow,
  sessionId: string,
  rememberMe: boolean,
): Promise<string> {
  await restampSession(deps.db, sessionId, passwordStamp(user.password_hash, deps.secret));
  await deleteSessionsOf(deps.db, user._id, sessionId);
  return signToken(user, rememberMe, deps.secret, sessionId);
}

/** Every session of the user ends (their password was set for them, or their account deleted). */
export async function endAllSessions(deps: Pick<AppDeps, 'db'>, userId: string): Promise<number> {
  return deleteSessionsOf(deps.db, userId);
}

/**
 * The user's sessions that can still be used, oldest first: unexpired and begun under the
 * current password (one begun under an earlier password is refused anyway, however the
 * password changed).
 */
export async function listSessions(
  deps: Deps,
  user: UserRow,
  currentId: string | null,
): Promise<SessionDto[]> {
  const stamp = passwordStamp(user.password_hash, deps.secret);
  const rows = await liveSessions(deps.db, user._id, nowIso(deps.clock));
  return rows
    .filter((r) => r.password_stamp === stamp)
    .map((r) => ({
      id: r.id,
      current: r.id === currentId,
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at,
      userAgent: r.user_agent,
      ip: r.ip,
    }));
}

/**
 * DELETE /api/users/me/sessions/{id}: 404 for a session that is not the user's; 401 when the
 * asking session was itself ended meanwhile (by another of the user's sessions).
 */
export async function endOwnSession(deps: Deps, user: UserRow, currentId: string, id: string): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    await holdSessionsOf(tx, user._id);
    if (!(await sessionExists(tx, user._id, currentId))) throw fail.unauthorized('invalid_token');
    if (!(await deleteSession(tx, user._id, id))) throw fail.notFound('session_not_found');
  });
}

/**
 * POST /api/users/me/sessions/revoke-others: the number ended. Of sessions ending each other at
 * once, the first wins and the others find themselves ended (401): never all of them.
 */
export async function endOtherSessions(deps: Deps, user: UserRow, currentId: string): Promise<number> {
  return deps.db.transaction().execute(async (tx) => {
    await holdSessionsOf(tx, user._id);
    if (!(await sessionExists(tx, user._id, currentId))) throw fail.unauthorized('invalid_token');
    return deleteSessionsOf(tx, user._id, currentId);
  });
}

/**
 * An admin ends one session of a user, or all of them (`id` null), in one transaction with
 * its audit row; 404 when there was nothing to end.
 */
export async function endSessionsByAdmin(
  deps: Deps,
  adminId: string,
  user: UserRow,
  id: string | null,
): Promise<number> {
  return deps.db.transaction().execute(async (tx) => {
    const ended = id ? Number(await deleteSession(tx, user._id, id)) : await deleteSessionsOf(tx, user._id);
    if (id && ended === 0) throw fail.notFound('session_not_found');
    await recordAudit(tx, {
      actorId: adminId,
      action: 'user.sessions_end',
      targetType: 'user',
      targetId: user._id,
      changes: id ? { session: id } : { sessions: ended },
      at: nowIso(deps.clock),
    });
    return ended;
  });
}

/**
 * Removes the rows of sessions past their end. Their tokens are refused already (a token expires
 * with its session), so this only keeps the table from growing with every sign-in ever made.
 */
export async function removeExpiredSessions(
  deps: Pick<AppDeps, 'db' | 'clock'>,
): Promise<{ removed: number }> {
  return { removed: await deleteExpiredSessions(deps.db, nowIso(deps.clock)) };
}
