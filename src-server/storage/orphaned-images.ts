import type { Db } from '../db/database';
import { referencedImages } from './backup-files';
import { fileStoreFor } from './file-store';

/**
 * Stored images (profile photos, the site logo and favicon) that no row names. An image is
 * written and fsynced before the row that names it commits, so a kill between the two leaves
 * one behind, which `doctor` reports. Without `grace`: only for the server holding the folder's
 * lock, before it serves, when no upload can be under way. With it (nodes sharing the files,
 * issue 18): only images older than `graceMs` at `now`. Returns how many were removed.
 */
export async function removeOrphanedImages(
  db: Db,
  dataDir: string,
  grace?: { now: Date; graceMs: number },
): Promise<number> {
  const store = fileStoreFor(dataDir);
  const onDisk = grace
    ? (await store.listWithTimes('images'))
        .filter((f) => grace.now.getTime() - f.modified.getTime() > grace.graceMs)
        .map((f) => f.name)
    : await store.list('images');
  if (onDisk.length === 0) return 0;
  const named = new Set((await referencedImages(db)).map((r) => r.name));
  let removed = 0;
  for (const name of onDisk) {
    if (named.has(name)) continue;
    await store.remove('images', name);
    removed++;
  }
  return removed;
}
