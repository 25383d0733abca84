import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, statSync, type WriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import * as tar from 'tar';
import { openDatabase } from '../db/database';
import { latestMigrationName } from '../db/migrate';
import { lastAppliedMigration } from './backup';
import { DataFolder, DB_FILE_NAME, FILES_DIR_NAME } from './data-folder';
import { acquireLock, type FolderLock } from './lock';
import {
  BadArchiveError,
  hashFile,
  isAllowedEntryPath,
  MANIFEST_NAME,
  type Manifest,
  parseManifest,
} from './manifest';
import { FILE_KINDS } from './stored-names';

export interface RestoreResult {
  manifest: Manifest;
  /** Whether a data folder was there and has been replaced. */
  replaced: boolean;
}

function errorCode(err: unknown): string {
  return err instanceof Error && 'code' in err ? String(err.code) : '';
}

/**
 * Unpacks an archive into `dir` and proves it whole before anyone uses it: only the entries a
 * backup writes (plain files at known paths), a manifest of ours, and every listed file present
 * with its size and sha256. Throws BadArchiveError with the reason otherwise.
 */
export async function unpackAndVerify(archive: string, dir: string): Promise<Manifest> {
  if (!existsSync(archive) || !statSync(archive).isFile()) {
    throw new BadArchiveError(`there is no archive at ${archive}`);
  }
  const found = new Set<string>();
  const unexpected: string[] = [];
  const problems: string[] = [];
  const writes: Promise<void>[] = [];
  const outs: WriteStream[] = [];
  // every folder an allowed entry can land in exists before the first byte arrives
  for (const kind of FILE_KINDS) await mkdir(join(dir, FILES_DIR_NAME, kind), { recursive: true });
  try {
    await tar.list({
      file: archive,
      onwarn: (code, message) => problems.push(`${code}: ${message}`),
      onReadEntry: (entry) => {
        const path = entry.path;
        const ok =
          entry.type === 'File' && (path === MANIFEST_NAME || isAllowedEntryPath(path)) && !found.has(path);
        if (!ok) {
          unexpected.push(path);
          return;
        }
        found.add(path);
        const out = createWriteStream(join(dir, path), { flags: 'wx', mode: 0o600 });
        outs.push(out);
        writes.push(
          new Promise<void>((settle, reject) => {
            out.on('error', reject);
            out.on('close', settle);
          }),
        );
        entry.on('error', (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
        entry.pipe(out);
      },
    });
  } catch (err) {
    problems.push((err as Error).message);
    // a cut-off entry never ends: close what it was writing
    for (const out of outs) if (!out.closed) out.destroy();
  }
  // nothing may still be writing into the staging folder when the caller removes it
  const written = await Promise.allSettled(writes);
  for (const w of written) if (w.status === 'rejected') problems.push(String(w.reason));
  if (problems.length > 0) {
    throw new BadArchiveError(`the archive is damaged or not a tar (${problems[0]})`);
  }
  if (unexpected.length > 0) {
    throw new BadArchiveError(`the archive holds unexpected entries: ${unexpected.slice(0, 5).join(', ')}`);
  }
  if (!found.has(MANIFEST_NAME)) throw new BadArchiveError('the archive has no manifest.json');
  const manifest = parseManifest(await readFile(join(dir, MANIFEST_NAME), 'utf8'));
  const listed = new Set(manifest.entries.map((e) => e.path));
  for (const path of found) {
    if (path !== MANIFEST_NAME && !listed.has(path)) {
      throw new BadArchiveError(`${path} is in the archive but not in its manifest`);
    }
  }
  for (const entry of manifest.entries) {
    if (!found.has(entry.path)) throw new BadArchiveError(`${entry.path} is missing from the archive`);
    const actual = await hashFile(join(dir, entry.path));
    if (actual.bytes !== entry.bytes || actual.sha256 !== entry.sha256) {
      throw new BadArchiveError(`${entry.path} does not match its checksum: the archive is damaged`);
    }
  }
  const known = latestMigrationName();
  if (manifest.lastMigration > known) {
    throw new BadArchiveError(
      `the backup was made by a newer TaskReward (migration ${manifest.lastMigration}); upgrade first`,
    );
  }
  const { db, sqlite } = openDatabase(join(dir, DB_FILE_NAME));
  try {
    const check = sqlite.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BadArchiveError(`the database in the archive is damaged: ${String(check)}`);
    if ((await lastAppliedMigration(db)) !== manifest.lastMigration) {
      throw new BadArchiveError('the database does not match the manifest (last migration differs)');
    }
  } catch (err) {
    if (err instanceof BadArchiveError) throw err;
    throw new BadArchiveError(`the database in the archive cannot be read (${(err as Error).message})`);
  } finally {
    await db.destroy();
  }
  await rm(join(dir, MANIFEST_NAME), { force: true });
  await mkdir(join(dir, FILES_DIR_NAME), { recursive: true });
  return manifest;
}

/**
 * Replaces the data folder with the contents of a backup archive. Refuses while a running
 * server holds the folder (FolderLockedError) and refuses a damaged or foreign archive
 * (BadArchiveError) before touching anything. The archive is unpacked and checked beside the
 * folder, then swapped in by renames; the old folder is kept until the swap has succeeded
 * and then removed, except its backups/ which moves into the restored folder.
 */
export async function restoreBackup(folder: DataFolder, archive: string): Promise<RestoreResult> {
  const root = folder.root;
  const tag = randomBytes(6).toString('hex');
  const staging = join(dirname(root), `.${basename(root)}.restore-${tag}`);
  const exists = existsSync(root);
  let lock: FolderLock | null = null;
  if (exists) lock = await acquireLock(folder);
  try {
    let manifest: Manifest;
    try {
      manifest = await unpackAndVerify(resolve(archive), staging);
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
    if (!exists) {
      await rename(staging, root);
      return { manifest, replaced: false };
    }
    const old = join(dirname(root), `.${basename(root)}.old-${tag}`);
    await rename(root, old);
    try {
      await rename(staging, root);
    } catch (err) {
      await rename(old, root);
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
    lock?.release();
    lock = null;
    const before = new DataFolder(old);
    if (existsSync(before.backupsDir)) {
      try {
        await rename(before.backupsDir, folder.backupsDir);
      } catch (err) {
        // keep the old folder rather than lose its backups
        throw new Error(
          `restored, but could not move the old backups (${errorCode(err)}); they are in ${before.backupsDir}`,
        );
      }
    }
    await rm(old, { recursive: true, force: true });
    return { manifest, replaced: true };
  } finally {
    lock?.release();
  }
}
