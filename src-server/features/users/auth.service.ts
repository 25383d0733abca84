import type { LoginInput, RegisterInput } from '../../contract/schemas';
import { isUniqueViolation } from '../../db/errors';
import { newId, nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { workKey } from '../../work/expensive-work';
import { flagAddressBurst, flagSharedDevice } from '../fraud/signals';
import { dummyVerify, hashPassword, verifyPassword } from './password';
import { type SignInOrigin, startSession } from './sessions.service';
import type { LoginAttempt } from './throttle';
import { verifyDeviceToken } from './token';
import { checkSecondFactor, hasTwoFactor } from './two-factor.service';
import type { UserRow } from './users.repository';
import { findUserByEmail, findUserById, insertUser, newUserRow, updateUser } from './users.repository';

type Parsed<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

/** Creates an account with role user; any other field sent is ignored. */
export async function register(
  deps: AppDeps,
  input: Parsed<
    Pick<RegisterInput, 'name' | 'email' | 'password' | 'device_id' | 'oneSignalId' | 'language'>
  >,
  origin: SignInOrigin,
): Promise<{ user: UserRow; token: string }> {
  const { ip } = origin;
  // counted first: probing which emails exist costs the same as registering
  await deps.throttle.registration(ip);
  if (await findUserByEmail(deps.db, input.email)) throw fail.conflict('email_in_use');
  const passwordHash = await deps.work.cpu.run(workKey.address(ip), () => hashPassword(input.password));
  const now = nowIso(deps.clock);
  const id = newId();
  // the address it came from, kept for the linked accounts (none when unknown: a test call)
  const address = ip === 'local' ? null : ip;
  try {
    await deps.db.transaction().execute(async (trx) => {
      await insertUser(
        trx,
        newUserRow({
          _id: id,
          name: input.name,
          email: input.email,
          password_hash: passwordHash,
          role: 'user',
          status: 'active',
          one_signal_id: input.oneSignalId,
          device_id: input.device_id,
          register_ip: address,
          language: input.language,
          created_at: now,
          last_active: now,
        }),
      );
      // the fraud signals of a new account, with it: flags for the admin, never a refusal
      await flagSharedDevice(trx, { userId: id, deviceId: input.device_id, at: now });
      if (address) await flagAddressBurst(trx, { userId: id, address, at: now });
    });
  } catch (err) {
    // two registrations of one address at the same moment: the unique index decides
    if (isUniqueViolation(err)) throw fail.conflict('email_in_use');
    throw err;
  }
  // the address that registered the account is its owner's: known to it, like a sign-in's
  await deps.throttle.remember(input.email, ip);
  const user = (await findUserById(deps.db, id))!;
  const { token } = await startSession(deps, user, false, origin);
  return { user, token };
}

/** How a sign-in's credentials fared: the password, then the second factor when there is one. */
export type CredentialCheck = 'ok' | 'bad_password' | 'no_code' | 'bad_code';

/**
 * Checks a password under the login throttle (a 429 when its limits are used up, or when the
 * account is locked to strangers): a sign-in, or the current password a password change asks for.
 * Unknown accounts (null hash) cost the same time as known ones and count the same.
 * `secondFactor` is asked only after a right password (a wrong one never tells whether the
 * account has two-factor, and never uses up a code): a wrong code counts as a failed attempt;
 * no code at all gives the attempt back (the password was right, nothing was guessed).
 */
export async function checkCredentials(
  deps: Pick<AppDeps, 'throttle' | 'work'>,
  who: LoginAttempt,
  passwordHash: string | null,
  password: string,
  purpose: 'sign-in' | 'confirm',
  secondFactor?: () => Promise<'ok' | 'missing' | 'wrong'>,
): Promise<CredentialCheck> {
  await deps.throttle.attempt(who);
  let ok: boolean;
  try {
    // sign-ins have a queue of their own: they never wait behind profile saves or uploads
    const queue = purpose === 'sign-in' ? deps.work.signIns : deps.work.cpu;
    ok = await queue.run(workKey.account(who.email), () =>
      passwordHash ? verifyPassword(passwordHash, password) : dummyVerify(password),
    );
  } catch (err) {
    // refused by the queue (busy): no password was checked, the attempt does not count
    await deps.throttle.refund(who);
    throw err;
  }
  if (!ok) {
    await deps.throttle.failed(who);
    return 'bad_password';
  }
  const second = secondFactor ? await secondFactor() : 'ok';
  if (second === 'missing') {
    await deps.throttle.refund(who);
    return 'no_code';
  }
  if (second === 'wrong') {
    await deps.throttle.failed(who);
    return 'bad_code';
  }
  await deps.throttle.succeeded(who);
  return 'ok';
}

/** checkCredentials for a password alone: true when right. */
export async function checkPassword(
  deps: Pick<AppDeps, 'throttle' | 'work'>,
  who: LoginAttempt,
  passwordHash: string | null,
  password: string,
  purpose: 'sign-in' | 'confirm',
): Promise<boolean> {
  return (await checkCredentials(deps, who, passwordHash, password, purpose)) === 'ok';
}

/**
 * Checks the password under the throttle; banned users get their reason, not a token.
 * `presentedDevice` gives the device cookie the request carries for an account, if any: a valid
 * one lets its device sign in while the account is locked to strangers.
 */
export async function login(
  deps: AppDeps,
  input: Parsed<Pick<LoginInput, 'email' | 'password' | 'rememberMe' | 'device_id' | 'oneSignalId'>> &
    Pick<LoginInput, 'code' | 'recoveryCode'>,
  origin: SignInOrigin,
  presentedDevice: (userId: string) => string | undefined = () => undefined,
): Promise<{ user: UserRow; token: string }> {
  const { ip } = origin;
  const user = await findUserByEmail(deps.db, input.email);
  const cookie = user ? presentedDevice(user._id) : undefined;
  const device = user && cookie ? await verifyDeviceToken(cookie, user._id, deps.secret) : null;
  // read before the password is checked, so both answers take the same path; asked only after
  // a right password
  const twoFactor = user ? await hasTwoFactor(deps, user._id) : false;
  const check = await checkCredentials(
    deps,
    { email: input.email, ip, device },
    user?.password_hash ?? null,
    input.password,
    'sign-in',
    user && twoFactor
      ? () => checkSecondFactor(deps, user, { code: input.code, recoveryCode: input.recoveryCode })
      : undefined,
  );
  if (!user || check === 'bad_password') throw fail.unauthorized('invalid_credentials');
  if (check === 'no_code') throw fail.unauthorized('two_factor_required');
  if (check === 'bad_code') throw fail.unauthorized('two_factor_invalid');
  if (user.status === 'banned') throw fail.banned(user.ban_reason);
  const now = nowIso(deps.clock);
  await updateUser(deps.db, user._id, {
    last_active: now,
    ...(input.device_id ? { device_id: input.device_id } : {}),
    ...(input.oneSignalId ? { one_signal_id: input.oneSignalId } : {}),
  });
  if (input.device_id)
    await flagSharedDevice(deps.db, { userId: user._id, deviceId: input.device_id, at: now });
  // deleted while the password was being checked: the account is gone, as if never found
  const fresh = await findUserById(deps.db, user._id);
  if (!fresh) throw fail.unauthorized('invalid_credentials');
  const { token } = await startSession(deps, fresh, input.rememberMe, origin);
  return { user: fresh, token };
}
