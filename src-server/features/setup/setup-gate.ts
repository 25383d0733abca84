import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * The one-time token of the first-run setup link (PocketBase's way in): `serve` opens it when
 * the database has no active admin and prints the link. It lives in this process's memory only,
 * so it works until an admin is created with it or the process stops.
 */
export class SetupGate {
  #digest: Buffer | null = null;

  /** Makes a new token (256 random bits, base64url) and returns it; an earlier one stops working. */
  open(): string {
    const token = randomBytes(32).toString('base64url');
    this.#digest = digest(token);
    return token;
  }

  /** Whether `token` is the open one (compared in constant time). */
  accepts(token: string | undefined): boolean {
    if (this.#digest === null || !token) return false;
    return timingSafeEqual(this.#digest, digest(token));
  }

  /** Whether a token is open. */
  get isOpen(): boolean {
    return this.#digest !== null;
  }

  /** Ends the token: it was used, or an admin exists. */
  close(): void {
    this.#digest = null;
  }
}
