import { jwtVerify, SignJWT } from 'jose';
import type { TokenClaims } from '../../contract/types';
import type { UserRow } from '../../http/env';

export const LONG_TOKEN = '30d';
export const SHORT_TOKEN = '1d';

/** An HS256 token carrying the user fields of SPEC.md section 3. */
export function signToken(user: UserRow, rememberMe: boolean, secret: Uint8Array): Promise<string> {
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
    .sign(secret);
}

/** The user id of a valid, unexpired token, or null. */
export async function verifyToken(token: string, secret: Uint8Array): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
