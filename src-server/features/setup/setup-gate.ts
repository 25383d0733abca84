import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database';
import {
  anySetupToken,
  deleteSetupToken,
  deleteSetupTokens,
  insertSetupToken,
  setupTokenExists,
} from './setup-tokens.repository';

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The one-time token of the first-run setup link (PocketBase's way in): `serve` opens it when
 * the database has no active admin and prints the link. Only its SHA-256 is kept, in the
 * database, so a link printed by one app node works on every node sharing it, and
 * the first admin's transaction uses it up with a conditional DELETE. It is found by its
 * digest: timing tells nothing about a token without the preimage.
 *
 * One server (`shared` false) keeps one token: opening a new one at its start ends the earlier
 * ones, so a link works until the server stops (the next start replaces it). Nodes sharing the
 * database each open their own at start, and every one works until an admin exists.
 */
export class SetupGate {
  constructor(
    private readonly db: Db,
    private readonly shared: boolean,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Makes a new token (256 random bits, base64url) and returns it. */
  async open(): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const at = this.clock().toISOString();
    if (this.shared) await insertSetupToken(this.db, digest(token), at);
    else
      await this.db.transaction().execute(async (tx) => {
        await deleteSetupTokens(tx);
        await insertSetupToken(tx, digest(token), at);
      });
    return token;
  }

  /** Whether `token` is an open one. */
  async accepts(token: string | undefined): Promise<boolean> {
    if (!token) return false;
    return setupTokenExists(this.db, digest(token));
  }

  /** Whether a token is open. */
  isOpen(): Promise<boolean> {
    return anySetupToken(this.db);
  }

  /**
   * Uses `token` up inside the transaction that creates the first admin (`tx`): false when it
   * was not open, or another request used it first.
   */
  async use(tx: Db, token: string | undefined): Promise<boolean> {
    if (!token) return false;
    return deleteSetupToken(tx, digest(token));
  }

  /** Ends every token: an admin exists (in `tx` when given). */
  async close(tx: Db = this.db): Promise<void> {
    await deleteSetupTokens(tx);
  }
}
