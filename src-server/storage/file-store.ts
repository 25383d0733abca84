import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import { DataFolder } from './data-folder';
import { S3FileStore } from './s3-file-store';
import {
  contentTypeOf,
  type FileKind,
  isStoredName,
  newStoredName,
  type StoredContentType,
} from './stored-names';

// the names are defined in stored-names.ts; the features import them from here with the store
export {
  contentTypeOf,
  FILE_KINDS,
  type FileKind,
  isFileKind,
  isStoredName,
  newStoredName,
  STORED_TYPES,
  type StoredContentType,
} from './stored-names';

export interface StoredFile {
  bytes: Buffer;
  contentType: StoredContentType;
}

/**
 * How old a stored file no row names must be before a clean-up removes it from a store that other
 * app nodes share: an upload's file is written before its row commits, on any node, at any time.
 */
export const SHARED_STORE_GRACE_MS = 3_600_000;

/**
 * Every uploaded file: written durably under a random name, read, removed and listed by kind.
 * No other module builds a path or a key to a stored file. Two kinds: the data folder's files/
 * (LocalFileStore, the default) and an S3-compatible bucket (S3FileStore) that many app nodes
 * share; openFileStore makes the one the config names. Uploads are staged on the local disk in
 * both (tempPath), and a name that could not have come from the store (isStoredName) never
 * reaches either.
 */
export interface FileStore {
  /** Where the files are, in words for an operator ("the folder /srv/data/files", "S3 bucket b"). */
  readonly description: string;
  /**
   * Whether other app nodes write to the same store: a clean-up at start may then not assume that
   * no upload is under way, and spares files younger than its grace period.
   */
  readonly shared: boolean;
  /** A fresh, unused path in the temp folder (cleared at every start) for staging an upload. */
  tempPath(): string;
  /** Removes a staged temp file; a missing one is fine. */
  discardTemp(path: string): Promise<void>;
  /** Every entry of the temp folder (tests check that refused uploads leave nothing behind). */
  listTemp(): Promise<string[]>;
  /**
   * Writes the bytes durably under a new random name (the file survives a crash before any
   * database row refers to it) and returns the name.
   */
  save(kind: FileKind, bytes: Uint8Array, contentType: StoredContentType): Promise<string>;
  /**
   * Writes the bytes durably under a name another store gave them (moving a site's files into
   * this one), replacing a file of that name; the name must be a stored name.
   */
  saveAs(kind: FileKind, name: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes and their content type, or null when there is no such file. */
  read(kind: FileKind, name: string): Promise<StoredFile | null>;
  /** Deletes a stored file; a missing one is fine. */
  remove(kind: FileKind, name: string): Promise<void>;
  /** The names stored under a kind, sorted (for checks and clean-ups). */
  list(kind: FileKind): Promise<string[]>;
  /**
   * The names stored under a kind with their last change (for clean-ups that spare fresh files)
   * and their size in bytes (for checking a copy).
   */
  listWithTimes(kind: FileKind): Promise<ListedFile[]>;
}

/** A stored file as a listing shows it. */
export interface ListedFile {
  name: string;
  modified: Date;
  size: number;
}

/** The data folder's temp area, where uploads are staged on the local disk whatever the store. */
export class TempArea {
  constructor(private readonly folder: DataFolder) {}

  tempPath(): string {
    return join(this.folder.tmpDir, `${randomBytes(16).toString('hex')}.part`);
  }

  async discardTemp(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  async listTemp(): Promise<string[]> {
    try {
      return await readdir(this.folder.tmpDir);
    } catch {
      return [];
    }
  }
}

/** fsync of a directory makes a rename inside it durable; Windows cannot open directories. */
async function syncDir(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    if (process.platform !== 'win32') throw err;
  } finally {
    await handle?.close();
  }
}

/**
 * The files under the data folder's files/<kind>/, the default store; or, given `sharedDir`
 * (FILES_DIR), under a folder every app node mounts.
 */
export class LocalFileStore implements FileStore {
  readonly shared: boolean;
  private readonly root: string;
  private readonly temp: TempArea;

  constructor(
    private readonly folder: DataFolder,
    sharedDir?: string,
  ) {
    this.temp = new TempArea(folder);
    this.root = sharedDir ?? folder.filesDir;
    this.shared = sharedDir !== undefined;
  }

  get description(): string {
    return `the ${this.shared ? 'shared ' : ''}folder ${this.root}`;
  }

  private dir(kind: FileKind): string {
    return join(this.root, kind);
  }

  tempPath(): string {
    return this.temp.tempPath();
  }

  discardTemp(path: string): Promise<void> {
    return this.temp.discardTemp(path);
  }

  listTemp(): Promise<string[]> {
    return this.temp.listTemp();
  }

  /**
   * Writes to a temp file, fsyncs it, renames it into place and fsyncs the directory. In a shared
   * folder the temp file is beside its final place (`.<random>.part`, which no listing shows): a
   * rename from the node's own disk to the mount would cross file systems.
   */
  async save(kind: FileKind, bytes: Uint8Array, contentType: StoredContentType): Promise<string> {
    const name = newStoredName(contentType);
    await this.saveAs(kind, name, bytes);
    return name;
  }

  async saveAs(kind: FileKind, name: string, bytes: Uint8Array): Promise<void> {
    if (!isStoredName(name)) throw new Error(`not a stored file name: ${name}`);
    const dir = this.dir(kind);
    await mkdir(dir, { recursive: true });
    // a shared folder stages beside the file: the data folder is left as it is (the move reads it)
    if (!this.shared) await mkdir(this.folder.tmpDir, { recursive: true });
    const temp = this.shared ? join(dir, `.${randomBytes(16).toString('hex')}.part`) : this.tempPath();
    try {
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, join(dir, name));
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    await syncDir(dir);
  }

  async read(kind: FileKind, name: string): Promise<StoredFile | null> {
    const contentType = contentTypeOf(name);
    if (!contentType) return null;
    try {
      const bytes = await readFile(join(this.dir(kind), name));
      return { bytes, contentType };
    } catch (err) {
      if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'EISDIR'))
        return null;
      throw err;
    }
  }

  async remove(kind: FileKind, name: string): Promise<void> {
    if (!isStoredName(name)) return;
    await rm(join(this.dir(kind), name), { force: true });
  }

  async list(kind: FileKind): Promise<string[]> {
    try {
      return (await readdir(this.dir(kind))).filter(isStoredName).sort();
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return [];
      throw err;
    }
  }

  async listWithTimes(kind: FileKind): Promise<ListedFile[]> {
    const out: ListedFile[] = [];
    for (const name of await this.list(kind)) {
      try {
        const info = await stat(join(this.dir(kind), name));
        out.push({ name, modified: info.mtime, size: info.size });
      } catch {
        // removed meanwhile
      }
    }
    return out;
  }
}

/**
 * A new store of the kind the config names: the S3 bucket when S3_BUCKET is set, the shared
 * folder when FILES_DIR is, else the data folder's files/. The app opens one (bootstrap.ts, in
 * its deps) and every feature uses that one; a command line tool opens its own for its run.
 */
export function openFileStore(
  config: Pick<Config, 'dataDir' | 's3'> & { filesDir?: string | null },
): FileStore {
  const folder = new DataFolder(config.dataDir);
  return config.s3
    ? new S3FileStore(new TempArea(folder), config.s3)
    : new LocalFileStore(folder, config.filesDir ?? undefined);
}
