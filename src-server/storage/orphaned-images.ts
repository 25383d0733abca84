import type { Db } from '../db/database';
import { referencedImages } from './backup-files';
import { type FileStore, SHARED_STORE_GRACE_MS } from './file-store';

/**
 * Stored images (profile photos, the site logo and favicon) that no row names. An image is
 * written durably before the row that names it commits, so a kill between the two leaves
 * one behind, which `doctor` reports. Without `graceMs`: only for the server holding the folder's
 * lock, before it serves: no upload of its own can be under way then. In a store other app nodes
 * share (S3), theirs can: images younger than SHARED_STORE_GRACE_MS are spared there. With
 * `graceMs` (the hourly clean-up of nodes sharing a database, cli/sweeps.ts): only images older
 * than that at `now`. Returns how many were removed.
 */
export async function removeOrphanedImages(
  db: Db,
  store: FileStore,
  now: Date = new Date(),
  graceMs?: number,
): Promise<number> {
  const grace = store.shared ? Math.max(graceMs ?? 0, SHARED_STORE_GRACE_MS) : graceMs;
  const stored =
    grace !== undefined
      ? (await store.listWithTimes('images'))
          .filter((f) => now.getTime() - f.modified.getTime() > grace)
          .map((f) => f.name)
      : await store.list('images');
  if (stored.length === 0) return 0;
  const named = new Set((await referencedImages(db)).map((r) => r.name));
  let removed = 0;
  for (const name of stored) {
    if (named.has(name)) continue;
    await store.remove('images', name);
    removed++;
  }
  return removed;
}
