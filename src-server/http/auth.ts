import type { Context, MiddlewareHandler } from 'hono';
import { changeStamp } from '../db/change-stamp';
import { fail } from '../errors';
import { findSignedIn } from '../features/users/sessions.repository';
import { tokenMatchesPassword, type VerifiedToken, verifyToken } from '../features/users/token';
import { adminTwoFactorRequired } from '../features/users/two-factor-policy';
import type { UserRow } from '../features/users/users.repository';
import type { AppEnv } from './env';

/**
 * Notes the signed-in request as the user's and the session's activity (features/users/activity.ts:
 * written once a second for all users together, each row at most once a minute). The user as
 * this request sees it, with its last_active as it is after this request.
 */
function recordActivity(
  c: Context<AppEnv>,
  user: UserRow,
  sessionId: string,
  lastSeenAt: string,
  now: Date,
): UserRow {
  const active = c.var.deps.activity.note(user._id, user.last_active, sessionId, lastSeenAt, now);
  return active === user.last_active ? user : { ...user, last_active: active };
}

/**
 * While the settings require two-factor of admins, an admin without it reaches only what its
 * enrolment needs (the routes marked with allowEnrolment); everything else is a 403.
 */
async function checkEnrolment(c: Context<AppEnv>, user: UserRow, twoFactorOn: boolean): Promise<void> {
  if (user.role !== 'admin' || twoFactorOn || c.var.enrolling) return;
  if (await adminTwoFactorRequired(c.var.deps)) throw fail.forbidden('two_factor_enrolment_required');
}

async function userFromRequest(c: Context<AppEnv>): Promise<UserRow | null> {
  const header = c.req.header('Authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw fail.unauthorized('invalid_token');
  const { db, secret, clock } = c.var.deps;
  const session: VerifiedToken | null = await verifyToken(match[1], secret);
  // the session and its user are as the database has them now, on every request: read in one
  // statement, or remembered under a change stamp no write has moved since (db/change-stamp.ts),
  // so an ended session, a ban or a role change counts at once on every node, and a token issued
  // under an earlier password is refused (a password change ends every other session)
  // one reading of the clock for the whole check
  const now = clock();
  // the request's one change stamp, read before its first remembered read and shared by the
  // rest (the task list's done tasks, a task's detail); on PostgreSQL one statement serves the
  // requests that arrive together
  const stamp = session ? await changeStamp(db) : null;
  const found = session
    ? await findSignedIn(db, c.var.deps.signedIn, stamp, session.sessionId, session.userId)
    : undefined;
  c.set('stamp', stamp);
  if (!session || !found || !tokenMatchesPassword(session, found.user, secret))
    throw fail.unauthorized('invalid_token');
  const { user } = found;
  c.set('session', session);
  // a banned user's refused requests are not activity
  if (user.status === 'banned') return user;
  await checkEnrolment(c, user, found.twoFactorOn);
  return recordActivity(c, user, session.sessionId, found.lastSeenAt, now);
}

/**
 * Marks a route an admin still enrolling in two-factor may use (their own account, its
 * sessions and the two-factor setup): put before the guard.
 */
export const allowEnrolment: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('enrolling', true);
  await next();
};

/** Any signed-in user who is not banned (suspended users may read their own data). */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = await userFromRequest(c);
  if (!user) throw fail.unauthorized();
  if (user.status === 'banned') throw fail.banned(user.ban_reason);
  c.set('user', user);
  await next();
};

/** A signed-in user who may act: not suspended, not banned. */
export const requireActive: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.var.user;
  if (user.status === 'suspended') throw fail.forbidden('suspended');
  await next();
};

/**
 * Every guard that lets only an active admin through, so a test can find each admin route by
 * its guard (a route added under one is covered by the privilege tests without a list to keep).
 */
export const ADMIN_GUARDS: ReadonlySet<MiddlewareHandler<AppEnv>> = new Set();

/**
 * An active admin as the account is now (the row is read on every request, on every node: no
 * node keeps users in memory), so a demotion, suspension, ban or deletion ends the powers on
 * the next request. `notAdmin` is the 403's code for any other role.
 */
function adminGuard(notAdmin: 'forbidden' | 'task_not_owner'): MiddlewareHandler<AppEnv> {
  const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
    const user = await userFromRequest(c);
    if (!user) throw fail.unauthorized();
    if (user.status === 'banned') throw fail.banned(user.ban_reason);
    if (user.role !== 'admin') throw fail.forbidden(notAdmin);
    // a suspended admin keeps a signed-in session but no admin powers
    if (user.status === 'suspended') throw fail.forbidden('suspended');
    c.set('user', user);
    await next();
  };
  (ADMIN_GUARDS as Set<MiddlewareHandler<AppEnv>>).add(guard);
  return guard;
}

/** A signed-in admin who is not banned; any other role is a 403. */
export const requireAdmin = adminGuard('forbidden');

/**
 * Editing a task: only admins create tasks, so a task's creator has no powers of their own once
 * they are no longer an active admin. Anyone else hears that they may not edit this task (the
 * edit screen's message).
 */
export const requireTaskEditor = adminGuard('task_not_owner');

/** Sets the user when a valid token is sent; visitors pass through. A bad token is still a 401. */
export const optionalUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = await userFromRequest(c);
  if (user && user.status !== 'banned') c.set('user', user);
  await next();
};
