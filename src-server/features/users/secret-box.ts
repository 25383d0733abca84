import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

// The TOTP secrets are kept encrypted under a key derived from the server's secret (secret.key or
// TOKEN_SECRET), so a copy of the database alone (a backup, a dump) does not give anyone the codes.
// AES-256-GCM from node:crypto: authenticated, so a changed value fails to open rather than
// giving a wrong secret.
const VERSION = 'v1';

function keyOf(secret: Uint8Array): Buffer {
  return createHmac('sha256', secret).update('two-factor-secret\0').digest();
}

/** The text stored for a secret: version, nonce, tag and ciphertext, base64url, dot-separated. */
export function sealSecret(plain: string, secret: Uint8Array, userId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  // bound to its account: a row copied onto another account does not open
  cipher.setAAD(Buffer.from(userId, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The secret sealed by sealSecret, or null when it does not open (another server secret, damage). */
export function openSecret(sealed: string, secret: Uint8Array, userId: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(userId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
