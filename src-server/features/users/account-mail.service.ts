import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { EMAIL_VERIFY_HOURS, PASSWORD_RESET_MINUTES } from '../../contract/account';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { AppError, fail } from '../../errors';
import { workKey } from '../../work/expensive-work';
import { queueUserMail, siteName } from '../mail/user-mail';
import { findLiveToken, issueAccountToken, useToken, voidAccountTokens } from './account-tokens.repository';
import { hashPassword } from './password';
import { type SignInOrigin, startSession } from './sessions.service';
import { hasTwoFactor } from './two-factor.service';
import type { UserRow } from './users.repository';
import { findUserByEmail, findUserById, lockLiveUser, updateUser } from './users.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mail' | 'throttle' | 'work' | 'secret'>;

/**
 * Every forgot-password reply takes at least this long, whether a mail was queued or not: the
 * work for a known account (a token, a mail in the outbox) would otherwise be measurable.
 */
export const FORGOT_PASSWORD_FLOOR_MS = 400;

const digestOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** 256 random bits, URL-safe: guessing one is hopeless, and only its digest is stored. */
const newToken = () => randomBytes(32).toString('base64url');

function requireMail(deps: Pick<AppDeps, 'mail'>): void {
  if (!deps.mail.configured) throw new AppError(503, 'email_not_configured');
}

/**
 * POST /api/auth/forgot-password: for a live, unbanned account of this email, a reset link
 * (voiding earlier ones) is mailed; for any other, nothing. The caller sees the same reply after
 * the same time either way. Throttled per client address and per email before anything is looked
 * up, so the throttle's refusal tells nothing either.
 */
export async function requestPasswordReset(
  deps: Deps,
  email: string,
  ip: string,
  base: string,
): Promise<void> {
  requireMail(deps);
  await deps.throttle.mailRequest(ip, email);
  const started = performance.now();
  try {
    const user = await findUserByEmail(deps.db, email);
    if (!user || user.status === 'banned') return;
    await mailLink(deps, user, 'password_reset', PASSWORD_RESET_MINUTES * 60_000, (site, token) => ({
      site,
      link: `${base}/reset-password?token=${token}`,
      minutes: PASSWORD_RESET_MINUTES,
    }));
  } finally {
    const left = FORGOT_PASSWORD_FLOOR_MS - (performance.now() - started);
    // a little noise on top, so the floor itself is not a clean edge to measure against
    await sleep(Math.max(0, left) + Math.random() * 20);
  }
}

const invalidToken = () =>
  new AppError(400, 'invalid_token', 'This link is not valid: it was used, replaced or has expired');

/**
 * POST /api/auth/reset-password: a live reset token sets the password. Every session of the
 * account ends (its tokens carry the old password's stamp), the other reset links die, the
 * address counts as verified (the link reached it), and the caller is signed in.
 */
export async function resetPassword(
  deps: Deps,
  input: { token: string; password: string; rememberMe: boolean },
  origin: SignInOrigin,
): Promise<{ user: UserRow; token: string | null }> {
  const { ip } = origin;
  await deps.throttle.tokenAttempt(ip);
  const digest = digestOf(input.token);
  const found = await findLiveToken(deps.db, digest, 'password_reset', nowIso(deps.clock));
  if (!found) throw invalidToken();
  // hashed before the transaction (slow work never inside one)
  const hash = await deps.work.cpu.run(workKey.user(found.user_id), () => hashPassword(input.password));
  const userId = await deps.db.transaction().execute(async (tx) => {
    const now = nowIso(deps.clock);
    const used = await useToken(tx, digest, 'password_reset', now);
    if (!used) throw invalidToken();
    const user = await lockLiveUser(tx, used.user_id);
    // the account was deleted, banned or given another address since the mail left
    if (!user || user.status === 'banned' || user.email !== used.email) throw invalidToken();
    await updateUser(tx, user._id, {
      password_hash: hash,
      updated_at: now,
      ...(user.email_verified_at ? {} : { email_verified_at: now }),
    });
    await voidAccountTokens(tx, user._id, 'password_reset');
    return user._id;
  });
  await deps.throttle.tokenSucceeded(ip);
  const fresh = await findUserById(deps.db, userId);
  if (!fresh) throw invalidToken();
  // a mailbox is one factor: an account with a second one signs in with its code after the reset
  if (await hasTwoFactor(deps, fresh._id)) return { user: fresh, token: null };
  const { token } = await startSession(deps, fresh, input.rememberMe, origin);
  return { user: fresh, token };
}

/**
 * Queues an address-verification link to the account's current address (voiding earlier ones).
 * Inside the caller's transaction when given one (the registration's), else its own.
 */
export async function queueVerification(deps: Deps, user: UserRow, base: string): Promise<void> {
  await mailLink(deps, user, 'email_verify', EMAIL_VERIFY_HOURS * 3_600_000, (site, token) => ({
    site,
    link: `${base}/verify-email?token=${token}`,
  }));
}

/**
 * Issues a one-time link of `purpose` to the account's current address (voiding earlier ones)
 * and queues its mail in the same transaction, then wakes the sender.
 */
async function mailLink(
  deps: Deps,
  user: UserRow,
  purpose: 'password_reset' | 'email_verify',
  validMs: number,
  values: (site: string, token: string) => Parameters<typeof queueUserMail>[3],
): Promise<void> {
  const token = newToken();
  const now = deps.clock();
  const at = now.toISOString();
  const site = await siteName(deps.db);
  await deps.db.transaction().execute(async (tx) => {
    await issueAccountToken(tx, {
      digest: digestOf(token),
      userId: user._id,
      purpose,
      email: user.email,
      at,
      expiresAt: new Date(now.getTime() + validMs).toISOString(),
    });
    await queueUserMail(tx, user, purpose, values(site, token), at);
  });
  deps.mail.wake();
}

/** POST /api/users/me/verify-email: a new link to the signed-in account's address (throttled). */
export async function resendVerification(deps: Deps, user: UserRow, ip: string, base: string): Promise<void> {
  requireMail(deps);
  if (user.email_verified_at) throw fail.conflict('email_already_verified');
  await deps.throttle.mailRequest(ip, `user:${user._id}`);
  await queueVerification(deps, user, base);
}

/**
 * POST /api/auth/verify-email: the token proves the address it was mailed to; no session needed
 * (the link may open in another browser). A link to an address the account no longer has is void.
 */
export async function verifyEmail(deps: Deps, token: string, ip: string): Promise<{ emailVerified: true }> {
  await deps.throttle.tokenAttempt(ip);
  const digest = digestOf(token);
  await deps.db.transaction().execute(async (tx) => {
    const now = nowIso(deps.clock);
    const used = await useToken(tx, digest, 'email_verify', now);
    if (!used) throw invalidToken();
    const user = await lockLiveUser(tx, used.user_id);
    if (!user || user.email !== used.email) throw invalidToken();
    await updateUser(tx, user._id, { email_verified_at: user.email_verified_at ?? now });
  });
  await deps.throttle.tokenSucceeded(ip);
  return { emailVerified: true };
}
