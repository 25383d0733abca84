import type { Db } from '../../db/database';
import { type FileStore, SHARED_STORE_GRACE_MS } from '../../storage/file-store';
import { proofFilesNamed } from './submissions.repository';

/**
 * A proof file is written durably before its submission row commits, so a crash (or a
 * kill) between the two leaves a file no row names. These are those files, older than
 * `graceMs` so uploads still on their way to the database are spared. In a store other app nodes
 * share (S3), another node's upload may be on its way whenever this runs: the grace is then at
 * least SHARED_STORE_GRACE_MS, whatever the caller asked.
 */
export async function findOrphanedProofs(
  db: Db,
  store: FileStore,
  now: Date,
  graceMs = 3_600_000,
): Promise<string[]> {
  const grace = store.shared ? Math.max(graceMs, SHARED_STORE_GRACE_MS) : graceMs;
  const files = await store.listWithTimes('proofs');
  const old = files.filter((f) => now.getTime() - f.modified.getTime() > grace).map((f) => f.name);
  if (old.length === 0) return [];
  const named = await proofFilesNamed(db, old);
  return old.filter((name) => !named.has(name));
}

/** Removes the orphaned proofs (see findOrphanedProofs); returns how many. For a doctor or clean-up command. */
export async function removeOrphanedProofs(
  db: Db,
  store: FileStore,
  now: Date,
  graceMs?: number,
): Promise<number> {
  const orphans = await findOrphanedProofs(db, store, now, graceMs);
  for (const name of orphans) await store.remove('proofs', name);
  return orphans.length;
}
