import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { sql } from 'kysely';
import * as tar from 'tar';
import { version } from '../../package.json';
import { type Db, openDatabase } from '../db/database';
import { referencedFiles, storedFilePath } from './backup-files';
import { type DataFolder, DB_FILE_NAME, FILES_DIR_NAME, SECRET_FILE_NAME } from './data-folder';
import { type FileStore, LocalFileStore } from './file-store';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  hashFile,
  MANIFEST_NAME,
  type Manifest,
  type ManifestEntry,
  serializeManifest,
} from './manifest';
import { S3FileStore } from './s3-file-store';
import { FILE_KINDS, perKind } from './stored-names';

/** The version written into every manifest. */
export const APP_VERSION: string = version;

export interface BackupResult {
  file: string;
  manifest: Manifest;
  /** How long the database snapshot took (the only step that reads the live database). */
  snapshotMs: number;
}

/**
 * Backup and restore work on a data folder with its files in it. With the files in a bucket (S3,
 * R2, MinIO) or a folder the nodes share (FILES_DIR), the archive would hold a database whose
 * files are elsewhere, and a restore would put files where no node reads them: both refuse with
 * this, naming what to use instead.
 */
export class FilesElsewhereError extends Error {}

/** Throws FilesElsewhereError unless the store is the data folder's own files/. */
export function assertFilesInDataFolder(store: FileStore, action: 'back up' | 'restore'): void {
  if (!store.shared) return;
  const how =
    store instanceof S3FileStore
      ? `${action} the bucket with the provider's bucket versioning or replication, or with rclone or aws s3 sync`
      : `${action} that folder with its file system's snapshots, rsync or rclone`;
  throw new FilesElsewhereError(
    `files are in ${store.description}, not in the data folder: ${how}; this command would ` +
      (action === 'back up' ? 'write an archive without them' : 'put them where no node reads them'),
  );
}

/** Hard-links a file (instant, no extra space); copies it where links are not possible. */
async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? err.code : '';
    if (code === 'ENOENT') return false;
    if (code === 'EEXIST') return true;
    await copyFile(from, to);
    return true;
  }
}

/** The newest migration applied to a database ('' when none). */
export async function lastAppliedMigration(db: Db): Promise<string> {
  const { rows } = await sql<{ name: string | null }>`select max(name) as name from kysely_migration`.execute(
    db,
  );
  return rows[0]?.name ?? '';
}

/**
 * Copies the live database through SQLite's online backup API in one step: one read
 * transaction, so the copy is a consistent snapshot, and in WAL mode writers go on
 * meanwhile. A passive checkpoint first keeps the WAL short without waiting on anyone.
 */
async function snapshotDatabase(folder: DataFolder, dest: string): Promise<number> {
  if (!existsSync(folder.dbFile)) throw new Error(`there is no database at ${folder.dbFile}`);
  const started = performance.now();
  const { db, sqlite } = openDatabase(folder.dbFile);
  try {
    sqlite.pragma('wal_checkpoint(PASSIVE)');
    await sqlite.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    await db.destroy();
  }
  return performance.now() - started;
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a backup of the whole data folder to `dest` (a tar; gzipped when the name ends in
 * .gz or .tgz) while a server may be running and writing: the database snapshot, the token
 * secret, every stored file the snapshot names, and manifest.json with the app version, the
 * last migration, file counts and the sha256 of every entry. Files are linked aside before the
 * snapshot, so a photo replaced meanwhile is still in the copy. The archive appears under its
 * name only when complete. `store` is where the config keeps the files: anything but the data
 * folder's own is refused (FilesElsewhereError) before anything is written. Aborting `signal`
 * gives the backup up at its next step, with nothing left behind (the reason is thrown).
 */
export async function createBackup(
  folder: DataFolder,
  dest: string,
  store: FileStore = new LocalFileStore(folder),
  options: { signal?: AbortSignal } = {},
): Promise<BackupResult> {
  assertFilesInDataFolder(store, 'back up');
  const goOn = () => options.signal?.throwIfAborted();
  const file = resolve(dest);
  const gzip = /\.(tgz|gz)$/i.test(file);
  const staging = join(folder.tmpDir, `backup-${randomBytes(8).toString('hex')}`);
  await mkdir(dirname(file), { recursive: true });
  try {
    for (const kind of FILE_KINDS) await mkdir(join(staging, FILES_DIR_NAME, kind), { recursive: true });
    // 1. every file there now (the snapshot can only name files that exist before it)
    for (const kind of FILE_KINDS) {
      for (const name of await store.list(kind)) {
        goOn();
        const { relative, absolute } = storedFilePath(folder, kind, name);
        await linkOrCopy(absolute, join(staging, relative));
      }
    }
    // 2. the database
    goOn();
    const dbCopy = join(staging, DB_FILE_NAME);
    const snapshotMs = await snapshotDatabase(folder, dbCopy);
    const snapshot = openDatabase(dbCopy);
    let lastMigration: string;
    let references: Awaited<ReturnType<typeof referencedFiles>>;
    try {
      lastMigration = await lastAppliedMigration(snapshot.db);
      references = await referencedFiles(snapshot.db);
    } finally {
      // closing the last connection folds the copy's WAL back in: one self-contained file
      await snapshot.db.destroy();
    }
    // 3. the files it names: linked in step 1, or written between step 1 and the snapshot
    const entries: string[] = [DB_FILE_NAME];
    const missing: string[] = [];
    const counts = perKind(() => 0);
    const seen = new Set<string>();
    for (const ref of references) {
      goOn();
      const { relative, absolute } = storedFilePath(folder, ref.kind, ref.name);
      if (seen.has(relative)) continue;
      seen.add(relative);
      if (existsSync(join(staging, relative)) || (await linkOrCopy(absolute, join(staging, relative)))) {
        entries.push(relative);
        counts[ref.kind]++;
      } else {
        missing.push(relative);
      }
    }
    if (existsSync(folder.secretFile)) {
      await copyFile(folder.secretFile, join(staging, SECRET_FILE_NAME));
      entries.push(SECRET_FILE_NAME);
    }
    // 4. the manifest, then the archive
    const listed: ManifestEntry[] = [];
    for (const path of entries) {
      goOn();
      listed.push({ path, ...(await hashFile(join(staging, path))) });
    }
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      appVersion: APP_VERSION,
      createdAt: new Date().toISOString(),
      lastMigration,
      counts,
      missing,
      entries: listed,
    };
    await writeFile(join(staging, MANIFEST_NAME), serializeManifest(manifest));
    const partial = `${file}.partial-${randomBytes(4).toString('hex')}`;
    try {
      await tar.create({ file: partial, cwd: staging, gzip, portable: true }, [MANIFEST_NAME, ...entries]);
      await fsyncFile(partial);
      goOn();
      await rename(partial, file);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    return { file, manifest, snapshotMs };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
