import { jwtVerify, SignJWT } from 'jose';
import type { TokenClaims } from '../../contract/types';
import type { UserRow } from '../../http/env';

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

/** An HS256 token carrying the user fields of SPEC.md section 3. */
export async function signToken(user: UserRow, rememberMe: boolean, secret: Uint8Array): Promise<string> {
  const claims: Omit<TokenClaims, 'sub'> = {
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    banReason: user.ban_reason,
  };
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user._id)
    .setIssuedAt()
    .setExpirationTime(rememberMe ? LONG_TOKEN : SHORT_TOKEN)
    .sign(await hmacKey(secret));
}

/** The user id of a valid, unexpired token, or null. */
export async function verifyToken(token: string, secret: Uint8Array): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), { algorithms: ['HS256'] });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
