import type { Db } from '../../db/database';
import { fileStoreFor } from '../../storage/file-store';
import { proofFilesNamed } from './submissions.repository';

/**
 * A proof file is written and fsynced before its submission row commits, so a crash (or a
 * kill) between the two leaves a file no row names. These are those files, older than
 * `graceMs` so uploads still on their way to the database are spared.
 */
export async function findOrphanedProofs(
  db: Db,
  dataDir: string,
  now: Date,
  graceMs = 3_600_000,
): Promise<string[]> {
  const files = await fileStoreFor(dataDir).listWithTimes('proofs');
  const old = files.filter((f) => now.getTime() - f.modified.getTime() > graceMs).map((f) => f.name);
  if (old.length === 0) return [];
  const named = await proofFilesNamed(db, old);
  return old.filter((name) => !named.has(name));
}

/** Removes the orphaned proofs (see findOrphanedProofs); returns how many. For a doctor or clean-up command. */
export async function removeOrphanedProofs(
  db: Db,
  dataDir: string,
  now: Date,
  graceMs?: number,
): Promise<number> {
  const orphans = await findOrphanedProofs(db, dataDir, now, graceMs);
  const store = fileStoreFor(dataDir);
  for (const name of orphans) await store.remove('proofs', name);
  return orphans.length;
}
