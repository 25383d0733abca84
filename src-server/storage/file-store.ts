import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFolder } from './data-folder';

/**
 * What the store keeps: `proofs` are private (served only through a signed URL),
 * `images` are public (profile photos, logo, favicon).
 */
export const FILE_KINDS = ['proofs', 'images'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** The content types the store accepts, with the extension that records them in the name. */
export const STORED_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/x-icon': 'ico',
  'image/webp': 'webp',
} as const;
export type StoredContentType = keyof typeof STORED_TYPES;

const TYPE_OF_EXT: Record<string, StoredContentType> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  ico: 'image/x-icon',
  webp: 'image/webp',
};

/** 128 random bits in hex, and the extension of the stored content type. */
const NAME = /^[0-9a-f]{32}\.(png|jpg|ico|webp)$/;

export function isFileKind(value: string): value is FileKind {
  return (FILE_KINDS as readonly string[]).includes(value);
}

/** Whether a name could have come from the store; anything else (paths, dots) never reaches the disk. */
export function isStoredName(name: string): boolean {
  return NAME.test(name);
}

export interface StoredFile {
  bytes: Buffer;
  contentType: StoredContentType;
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
 * Every uploaded file under the data folder: written durably under a random name,
 * read, removed and listed by kind. No other module builds a path to a stored file.
 */
export class FileStore {
  constructor(private readonly folder: DataFolder) {}

  private dir(kind: FileKind): string {
    return join(this.folder.filesDir, kind);
  }

  /** A fresh, unused path in the temp folder (cleared at every start) for staging an upload. */
  tempPath(): string {
    return join(this.folder.tmpDir, `${randomBytes(16).toString('hex')}.part`);
  }

  /** Removes a staged temp file; a missing one is fine. */
  async discardTemp(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /**
   * Writes the bytes under a new random name and fsyncs the file and its directory, so the
   * file survives a crash before any database row refers to it. Returns the name.
   */
  async save(kind: FileKind, bytes: Uint8Array, contentType: StoredContentType): Promise<string> {
    const dir = this.dir(kind);
    await mkdir(dir, { recursive: true });
    await mkdir(this.folder.tmpDir, { recursive: true });
    const name = `${randomBytes(16).toString('hex')}.${STORED_TYPES[contentType]}`;
    const temp = this.tempPath();
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
    return name;
  }

  /** The stored bytes and their content type, or null when there is no such file. */
  async read(kind: FileKind, name: string): Promise<StoredFile | null> {
    if (!isStoredName(name)) return null;
    try {
      const bytes = await readFile(join(this.dir(kind), name));
      return { bytes, contentType: TYPE_OF_EXT[name.slice(name.lastIndexOf('.') + 1)] };
    } catch (err) {
      if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'EISDIR'))
        return null;
      throw err;
    }
  }

  /** Deletes a stored file; a missing one is fine. */
  async remove(kind: FileKind, name: string): Promise<void> {
    if (!isStoredName(name)) return;
    await rm(join(this.dir(kind), name), { force: true });
  }

  /** The names stored under a kind (for checks and clean-ups). */
  async list(kind: FileKind): Promise<string[]> {
    try {
      return (await readdir(this.dir(kind))).filter(isStoredName).sort();
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return [];
      throw err;
    }
  }

  /** The names stored under a kind with their last change, for clean-ups that spare fresh files. */
  async listWithTimes(kind: FileKind): Promise<{ name: string; modified: Date }[]> {
    const out: { name: string; modified: Date }[] = [];
    for (const name of await this.list(kind)) {
      try {
        out.push({ name, modified: (await stat(join(this.dir(kind), name))).mtime });
      } catch {
        // removed meanwhile
      }
    }
    return out;
  }

  /** Every entry of the temp folder (tests check that refused uploads leave nothing behind). */
  async listTemp(): Promise<string[]> {
    try {
      return await readdir(this.folder.tmpDir);
    } catch {
      return [];
    }
  }
}

const stores = new Map<string, FileStore>();

/** The store of a data folder (one per folder, shared by every feature). */
export function fileStoreFor(dataDir: string): FileStore {
  let store = stores.get(dataDir);
  if (!store) {
    store = new FileStore(new DataFolder(dataDir));
    stores.set(dataDir, store);
  }
  return store;
}
