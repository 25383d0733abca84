import { createHmac, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { FIELD_MESSAGES } from '../../contract/field-messages';
import type { TwoFactorSetupDto, TwoFactorStatusDto } from '../../contract/sessions';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import { getSettings } from '../settings/settings.service';
import { type CredentialCheck, checkCredentials } from './auth.service';
import { openSecret, sealSecret } from './secret-box';
import {
  deleteTwoFactor,
  enableTwoFactor,
  findTwoFactor,
  replaceRecoveryCodes,
  savePendingSecret,
  spendRecoveryCode,
  takeStep,
} from './two-factor.repository';
import { adminTwoFactorRequired } from './two-factor-policy';
import type { UserRow } from './users.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'secret' | 'throttle' | 'work'>;

/** The codes of RFC 6238 as authenticator apps make them by default. */
const PERIOD = 30;
const DIGITS = 6;
/** A code of the step before or after the current one is accepted (clocks drift). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

function totpFor(base32: string, label: string, issuer: string): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(base32),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD,
  });
}

/**
 * The step a code belongs to when it is right (within the window around `now`), else null. The
 * library does the HMAC and the window; the step makes a code usable once.
 */
export function codeStep(base32: string, code: string, now: Date): number | null {
  const totp = totpFor(base32, '', '');
  const timestamp = now.getTime();
  const delta = totp.validate({ token: code, timestamp, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}

/** A keyed hash of a recovery code: the table alone does not tell the codes. */
function recoveryHash(code: string, userId: string, secret: Uint8Array): string {
  return createHmac('sha256', secret)
    .update('recovery\0')
    .update(userId)
    .update('\0')
    .update(code)
    .digest('base64url');
}

/** Ten random codes of 10 base32 characters (50 bits each), shown as "abcde-fghij". */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const plain = new Secret({ buffer: randomBytes(7).buffer }).base32.slice(0, 10).toLowerCase();
    return `${plain.slice(0, 5)}-${plain.slice(5)}`;
  });
}

/** Whether the account has two-factor on (a setup not yet confirmed does not count). */
export async function hasTwoFactor(deps: Pick<AppDeps, 'db'>, userId: string): Promise<boolean> {
  return Boolean((await findTwoFactor(deps.db, userId))?.enabled_at);
}

export async function twoFactorStatus(deps: Pick<AppDeps, 'db'>, user: UserRow): Promise<TwoFactorStatusDto> {
  const enabled = await hasTwoFactor(deps, user._id);
  return { enabled, required: user.role === 'admin' && (await adminTwoFactorRequired(deps)) };
}

/** The second factor a request carries. */
export interface SecondFactor {
  code?: string;
  recoveryCode?: string;
}

/**
 * Checks the second factor of an account with two-factor on: a current code (used up with its
 * step) or an unused recovery code (used up). 'missing' when the request carries neither.
 */
export async function checkSecondFactor(
  deps: Pick<AppDeps, 'db' | 'clock' | 'secret'>,
  user: Pick<UserRow, '_id'>,
  given: SecondFactor,
): Promise<'ok' | 'missing' | 'wrong'> {
  if (!given.code && !given.recoveryCode) return 'missing';
  const row = await findTwoFactor(deps.db, user._id);
  if (!row?.enabled_at) return 'wrong';
  if (given.code) {
    const base32 = openSecret(row.secret, deps.secret, user._id);
    const step = base32 ? codeStep(base32, given.code, deps.clock()) : null;
    if (step !== null && (await takeStep(deps.db, user._id, step))) return 'ok';
    if (!given.recoveryCode) return 'wrong';
  }
  const hash = recoveryHash(given.recoveryCode ?? '', user._id, deps.secret);
  return (await spendRecoveryCode(deps.db, user._id, hash, nowIso(deps.clock))) ? 'ok' : 'wrong';
}

function confirming(user: UserRow, ip: string) {
  // a session of the account vouches for its holder: a lockout by strangers does not stop the
  // owner, while wrong guesses still count toward every other limit
  return { email: user.email, ip, device: null, signedIn: true };
}

function passwordRefused(check: CredentialCheck): void {
  if (check === 'bad_password')
    throw fail.validation({ currentPassword: FIELD_MESSAGES.currentPasswordWrong });
}

/**
 * POST /api/users/me/two-factor/setup: after the current password, a new secret to confirm
 * with a code (kept encrypted; an earlier unconfirmed one is replaced). 409 when it is on.
 */
export async function startTwoFactorSetup(
  deps: Deps,
  user: UserRow,
  currentPassword: string,
  ip: string,
): Promise<TwoFactorSetupDto> {
  passwordRefused(
    await checkCredentials(deps, confirming(user, ip), user.password_hash, currentPassword, 'confirm'),
  );
  if (await hasTwoFactor(deps, user._id)) throw fail.conflict('two_factor_enabled');
  const secret = new Secret({ size: 20 });
  const saved = await savePendingSecret(
    deps.db,
    user._id,
    sealSecret(secret.base32, deps.secret, user._id),
    nowIso(deps.clock),
  );
  if (!saved) throw fail.conflict('two_factor_enabled');
  const issuer = (await getSettings(deps.db)).site.name || 'TaskReward';
  return { secret: secret.base32, otpauthUrl: totpFor(secret.base32, user.email, issuer).toString() };
}

/**
 * POST /api/users/me/two-factor/enable: a right code of the secret being set up turns it on
 * and gives the ten recovery codes, shown this once (stored as keyed hashes). Of two requests
 * at once only one turns it on.
 */
export async function enableTwoFactorWithCode(deps: Deps, user: UserRow, code: string): Promise<string[]> {
  const row = await findTwoFactor(deps.db, user._id);
  if (!row) throw fail.badRequest('two_factor_not_started');
  if (row.enabled_at) throw fail.conflict('two_factor_enabled');
  const base32 = openSecret(row.secret, deps.secret, user._id);
  const step = base32 ? codeStep(base32, code, deps.clock()) : null;
  if (step === null) throw fail.badRequest('two_factor_invalid');
  const codes = newRecoveryCodes();
  const hashes = codes.map((c) => recoveryHash(c.replace('-', ''), user._id, deps.secret));
  await deps.db.transaction().execute(async (tx) => {
    if (!(await enableTwoFactor(tx, user._id, nowIso(deps.clock), step)))
      throw fail.conflict('two_factor_enabled');
    await replaceRecoveryCodes(tx, user._id, hashes);
  });
  return codes;
}

/**
 * POST /api/users/me/two-factor/disable: the current password and a code (or a recovery code)
 * of the account, both checked under the sign-in throttle: a wrong code counts as a failed
 * attempt, as at sign-in.
 */
export async function disableOwnTwoFactor(
  deps: Deps,
  user: UserRow,
  input: { currentPassword: string } & SecondFactor,
  ip: string,
): Promise<void> {
  if (!(await hasTwoFactor(deps, user._id))) throw fail.conflict('two_factor_not_enabled');
  const check = await checkCredentials(
    deps,
    confirming(user, ip),
    user.password_hash,
    input.currentPassword,
    'confirm',
    () => checkSecondFactor(deps, user, input),
  );
  passwordRefused(check);
  if (check !== 'ok') throw fail.badRequest('two_factor_invalid');
  await deleteTwoFactor(deps.db, user._id);
}

/**
 * DELETE /api/admin/users/{id}/two-factor: an admin removes another account's second factor
 * (the owner lost their phone and codes), audited in the same transaction. Never their own:
 * that takes a code, from the profile.
 */
export async function removeTwoFactorByAdmin(deps: Deps, adminId: string, user: UserRow): Promise<void> {
  if (user._id === adminId) throw fail.forbidden('own_two_factor');
  await deps.db.transaction().execute(async (tx) => {
    if (!(await deleteTwoFactor(tx, user._id))) throw fail.conflict('two_factor_not_enabled');
    await recordAudit(tx, {
      actorId: adminId,
      action: 'user.two_factor_remove',
      targetType: 'user',
      targetId: user._id,
      changes: { twoFactor: [true, false] },
      at: nowIso(deps.clock),
    });
  });
}
