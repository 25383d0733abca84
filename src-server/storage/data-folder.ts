import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The database file, the token secret and the stored files' folder, by their names in the folder. */
export const DB_FILE_NAME = 'taskreward.db';
export const SECRET_FILE_NAME = 'secret.key';
export const FILES_DIR_NAME = 'files';

/**
 * The one data folder an operator backs up and moves: the database, the token secret and
 * every uploaded file. Every path under it is built here and nowhere else.
 */
export class DataFolder {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  get dbFile(): string {
    return join(this.root, DB_FILE_NAME);
  }

  get secretFile(): string {
    return join(this.root, SECRET_FILE_NAME);
  }

  get filesDir(): string {
    return join(this.root, FILES_DIR_NAME);
  }

  get tmpDir(): string {
    return join(this.root, 'tmp');
  }

  get backupsDir(): string {
    return join(this.root, 'backups');
  }

  get lockFile(): string {
    return join(this.root, 'server.lock');
  }

  /** Creates the folder layout; with clearTemp (the lock holder only) empties the temp folder of crash left-overs. */
  prepare(options: { clearTemp?: boolean } = {}): void {
    mkdirSync(this.root, { recursive: true });
    mkdirSync(this.filesDir, { recursive: true });
    if (options.clearTemp) rmSync(this.tmpDir, { recursive: true, force: true });
    mkdirSync(this.tmpDir, { recursive: true });
  }

  /** The token secret: from the environment if given, else generated once and kept here. */
  secret(fromEnv: string | null): Uint8Array {
    if (fromEnv) return new TextEncoder().encode(fromEnv);
    if (!existsSync(this.secretFile)) {
      writeFileSync(this.secretFile, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    }
    return new TextEncoder().encode(readFileSync(this.secretFile, 'utf8').trim());
  }
}
