import type { AppDeps } from '../../deps';
import { proofDerivatives } from '../../storage/image';
import { proofLookupColumns } from '../fraud/fingerprint-bands';
import { setDuplicateFlag } from '../fraud/fraud.repository';
import { duplicateProofFlag, findDuplicateProofs } from '../fraud/signals';
import { proofsWithoutPrint, setProofDerivatives } from './submissions.repository';

const BATCH = 50;

/**
 * Proofs stored before thumbnails and fingerprints existed, or before the current kind of
 * print (of the screen's content), get them in the background, oldest first,
 * after the server starts: one proof at a time, each a job of the fair CPU queue under its own key,
 * so users' uploads take turns with it and are never queued behind the whole backlog. A migration
 * could not do it (decoding every proof of a large site would hold the start for minutes), and
 * doing it on the first request would make a reviewer's list wait. Until a proof has its
 * thumbnail the screens show the proof itself. Each row is written only while it still has no
 * thumbnail, so two servers (or a restart mid-way) never leave a file without its row: a thumbnail
 * that lost the race is removed. Returns how many proofs it completed; stops when `stopped()`.
 */
export async function backfillProofDerivatives(
  deps: Pick<AppDeps, 'db' | 'work' | 'files'>,
  stopped: () => boolean = () => false,
): Promise<number> {
  const store = deps.files;
  let done = 0;
  let after = { at: '', id: '' };
  while (!stopped()) {
    const batch = await proofsWithoutPrint(deps.db, after, BATCH);
    if (batch.length === 0) break;
    for (const row of batch) {
      if (stopped()) break;
      after = { at: row.created_at, id: row._id };
      const file = await store.read('proofs', row.proof_file);
      if (!file) continue; // doctor reports a missing proof; nothing to make a thumbnail of
      let derived: Awaited<ReturnType<typeof proofDerivatives>>;
      try {
        derived = await deps.work.cpu.run('system:proof-backfill', () => proofDerivatives(file.bytes));
      } catch {
        continue; // a queue full of users' work, or an unreadable file: left for the next start
      }
      // a proof with a thumbnail only needs its print and bands; the hash is made again
      // the same way as new proofs'
      const thumb = row.proof_thumb ? null : await store.save('proofs', derived.thumbnail, 'image/webp');
      if (
        await setProofDerivatives(deps.db, row._id, thumb, {
          proof_hash: derived.hash,
          ...proofLookupColumns(derived),
        })
      ) {
        done++;
        // its duplicate flag judged again with the new prints, against the older proofs (which
        // have theirs by now): raised, brought up to date, or removed when it no longer holds
        const match = await findDuplicateProofs(deps.db, {
          userId: row.user_id,
          taskId: row.task_id,
          probes: derived.probes,
          before: row.created_at,
          except: row._id,
        });
        await setDuplicateFlag(
          deps.db,
          row._id,
          match &&
            duplicateProofFlag(match, { submissionId: row._id, userId: row.user_id, at: row.created_at }),
        );
      } else if (thumb) await store.remove('proofs', thumb);
    }
  }
  return done;
}
