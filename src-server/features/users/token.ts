import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { TokenClaims } from '../../contract/types';
import type { UserRow } from '../users/users.repository';

// jose imports a Uint8Array secret as a WebCrypto key on every call (~0.2 ms, a tenth of an
// approval's CPU in npm run bench); the key is imported once per secret instead.
const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, key);
  }
  return key;
}

export const LONG_TOKEN = '30d';
export const SHORT_TOKEN = '1d';

/**
 * A short keyed fingerprint of the user's password hash, carried in every token (`pwv`). A new
 * password means a new hash (argon2 salts each one), so every token issued before the change
 * stops matching: sessions end on a password change without a column to keep in step.
 * Keyed with the server secret, so the token tells nothing about the hash.
 */
export function passwordStamp(passwordHash: string, secret: Uint8Array): string {
  let known = stamps.get(secret);
  const hit = known?.get(passwordHash);
  if (hit !== undefined) return hit;
  const stamp = createHmac('sha256', stampKey(secret))
    .update('pwv\0')
    .update(passwordHash)
    .digest('base64url')
    .slice(0, 22);
  if (!known) {
    known = new Map();
    stamps.set(secret, known);
  }
  if (known.size >= STAMPS_MAX) known.delete(known.keys().next().value as string);
  known.set(passwordHash, stamp);
  return stamp;
}

// Every signed-in request compares its token's stamp with the account's hash: createHmac with a
// raw secret makes a key object each time, about 7% of a signed-in list's CPU (bench/profile.ts).
// The stamp is a fixed function of the hash and the secret, so it is kept per secret.
const stamps = new WeakMap<Uint8Array, Map<string, string>>();
// the secret as a key object made once: createHmac with raw bytes makes one on every call
const stampKeys = new WeakMap<Uint8Array, KeyObject>();
function stampKey(secret: Uint8Array): KeyObject {
  let key = stampKeys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    stampKeys.set(secret, key);
  }
  return key;
}
const STAMPS_MAX = 2_000;

/**
 * An HS256 token carrying the user's id, email, name and role, and the id of its session row
 * (`sid`): the token is good only while that row lasts (sessions.repository.ts).
 */
export async function signToken(
  user: UserRow,
  rememberMe: boolean,
  secret: Uint8Array,
  sessionId: string,
): Promise<string> {
  const claims: Omit<TokenClaims, 'sub'> = {
    sid: sessionId,
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    banReason: user.ban_reason,
    pwv: passwordStamp(user.password_hash, secret),
    rem: rememberMe,
  };
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user._id)
    .setIssuedAt()
    .setExpirationTime(rememberMe ? LONG_TOKEN : SHORT_TOKEN)
    .sign(await hmacKey(secret));
}

/** What a valid token says of its session. */
export interface VerifiedToken {
  userId: string;
  /** the session row the token belongs to */
  sessionId: string;
  /** the password stamp at sign-in: it must still match the user's hash */
  passwordStamp: string;
  rememberMe: boolean;
}

/**
 * Tokens whose signature was checked, per secret, with their expiry (seconds since the epoch).
 * A signature is a fixed function of the token and the secret, so checking it again tells
 * nothing new: jose's verify (a WebCrypto HMAC job on the thread pool and several promise hops)
 * was the largest cost a signed-in read added over an anonymous one. Only what the token itself
 * proves is kept; the session row and the account are still read on every request, so an ended
 * session, a ban or a role change counts at once on every node. Only valid tokens get in (they
 * need the secret to be made), and the oldest entry leaves first when the map is full.
 */
const verifiedTokens = new WeakMap<Uint8Array, Map<string, { session: VerifiedToken; exp: number }>>();
export const VERIFIED_TOKENS_MAX = 2_000;

/** The session of a valid, unexpired token, or null. */
export async function verifyToken(token: string, secret: Uint8Array): Promise<VerifiedToken | null> {
  let known = verifiedTokens.get(secret);
  const hit = known?.get(token);
  if (hit) {
    // expired as jose decides it: exp at or before the current whole second
    if (hit.exp > Math.floor(Date.now() / 1000)) return hit.session;
    known?.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.pwv !== 'string') return null;
    // a token from before sessions names none: its holder signs in again
    if (typeof payload.sid !== 'string' || payload.sid.length === 0) return null;
    const session: VerifiedToken = {
      userId: payload.sub,
      sessionId: payload.sid,
      passwordStamp: payload.pwv,
      rememberMe: payload.rem === true,
    };
    if (typeof payload.exp === 'number' && payload.nbf === undefined) {
      if (!known) {
        known = new Map();
        verifiedTokens.set(secret, known);
      }
      if (known.size >= VERIFIED_TOKENS_MAX) known.delete(known.keys().next().value as string);
      known.set(token, { session, exp: payload.exp });
    }
    return session;
  } catch {
    return null;
  }
}

/** True when the token was issued under the user's current password. */
export function tokenMatchesPassword(session: VerifiedToken, user: UserRow, secret: Uint8Array): boolean {
  return session.passwordStamp === passwordStamp(user.password_hash, secret);
}

/** How long a device cookie vouches for its device; every sign-in there starts it again. */
export const DEVICE_TOKEN_DAYS = 180;
// the audience of a device token: a sign-in token has none, so neither passes for the other
const DEVICE_AUDIENCE = 'login-device';

/**
 * A device token: this device has signed in to this account (`sub`), with a random nonce (`jti`)
 * that names the device to the throttle. It grants no access; it only lets its holder sign in
 * while the account is locked to strangers.
 */
export async function signDeviceToken(userId: string, secret: Uint8Array): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setAudience(DEVICE_AUDIENCE)
    .setJti(randomBytes(16).toString('base64url'))
    .setIssuedAt()
    .setExpirationTime(`${DEVICE_TOKEN_DAYS}d`)
    .sign(await hmacKey(secret));
}

/** The nonce of a valid, unexpired device token of this account, or null. */
export async function verifyDeviceToken(
  token: string,
  userId: string,
  secret: Uint8Array,
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      algorithms: ['HS256'],
      audience: DEVICE_AUDIENCE,
      subject: userId,
    });
    return typeof payload.jti === 'string' && payload.jti.length > 0 ? payload.jti : null;
  } catch {
    return null;
  }
}

/**
 * The name of an account's device cookie: one per account, so a browser shared by two accounts
 * vouches for both, and keyed with the secret, so the name tells nobody which account it is.
 */
export function deviceCookieName(userId: string, secret: Uint8Array): string {
  return `device_${createHmac('sha256', secret).update('device\0').update(userId).digest('base64url').slice(0, 16)}`;
}
