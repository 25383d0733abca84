import argon2 from 'argon2';

// OWASP's minimum for argon2id (19 MiB, 2 passes, 1 lane).
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Hashing is the most expensive thing the server does: requests run these through the fair
// queues of deps.work (sign-ins in their own, each account its share; work/expensive-work.ts).

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

// Verified against when the email is unknown, so both paths cost the same time.
let dummyHash: Promise<string> | null = null;
export function dummyVerify(password: string): Promise<boolean> {
  dummyHash ??= hashPassword('not-a-real-password');
  return dummyHash.then((h) => verifyPassword(h, password)).then(() => false);
}
