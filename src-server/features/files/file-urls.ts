import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed proof URL stays valid. */
export const PROOF_URL_TTL_SECONDS = 600;

function signature(secret: Uint8Array, name: string, exp: number): string {
  return createHmac('sha256', secret).update(`file:proofs/${name}:${exp}`).digest('base64url');
}

/**
 * The server-relative URL of a private proof, signed with the server secret and valid for
 * about ten minutes, so an <img> works without the bearer token. Only build it in replies
 * to the proof's owner or an admin.
 */
export function signedProofUrl(secret: Uint8Array, name: string, now: Date): string {
  const exp = Math.floor(now.getTime() / 1000) + PROOF_URL_TTL_SECONDS;
  return `/api/files/proofs/${name}?exp=${exp}&sig=${signature(secret, name, exp)}`;
}

/** Whether `sig` signs this name and expiry, and the expiry is still ahead. */
export function verifyProofUrl(
  secret: Uint8Array,
  name: string,
  exp: string | undefined,
  sig: string | undefined,
  now: Date,
): boolean {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
  const expires = Number(exp);
  if (expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(signature(secret, name, expires));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The public URL of a stored public image (profile photo, logo, favicon). */
export function publicImageUrl(name: string): string {
  return `/api/files/images/${name}`;
}
