import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStoreFor } from '../../storage/file-store';
import { proofFingerprint } from '../../storage/image';
import { jpegFile, pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { backfillProofDerivatives } from './proof-backfill';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.dispose());

describe('the proof thumbnail backfill', () => {
  it('gives proofs stored before thumbnails theirs and their fingerprint, once', async () => {
    const store = fileStoreFor(t.deps.config);
    const user = await makeUser(t.deps.db);
    const ids: string[] = [];
    for (const file of [pngFile(640, 480), jpegFile(300, 900), pngFile(50, 40)]) {
      const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
      const name = await store.save('proofs', file, file[0] === 0x89 ? 'image/png' : 'image/jpeg');
      await t.deps.db
        .updateTable('submissions')
        .set({ proof_file: name })
        .where('_id', '=', submissionId)
        .execute();
      ids.push(submissionId);
    }
    // a proof whose file is gone is skipped (doctor reports it), not a failure of the rest
    const { submissionId: lost } = await makePendingSubmission(t.deps.db, user._id);
    await t.deps.db
      .updateTable('submissions')
      .set({ proof_file: `${'a'.repeat(32)}.png` })
      .where('_id', '=', lost)
      .execute();

    expect(await backfillProofDerivatives(t.deps)).toBe(3);
    const rows = await t.deps.db
      .selectFrom('submissions')
      .select(['_id', 'proof_file', 'proof_thumb', 'proof_hash'])
      .where('_id', 'in', ids)
      .execute();
    for (const row of rows) {
      const thumb = await store.read('proofs', row.proof_thumb!);
      expect(thumb?.contentType).toBe('image/webp');
      expect(row.proof_hash).toBe(
        await proofFingerprint((await store.read('proofs', row.proof_file!))!.bytes),
      );
    }
    const files = (await store.list('proofs')).length;
    // a second run (a restart) finds nothing left and writes no file
    expect(await backfillProofDerivatives(t.deps)).toBe(0);
    expect((await store.list('proofs')).length).toBe(files);
  });

  it('stops when asked', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const name = await fileStoreFor(t.deps.config).save('proofs', pngFile(20, 20), 'image/png');
    await t.deps.db
      .updateTable('submissions')
      .set({ proof_file: name })
      .where('_id', '=', submissionId)
      .execute();
    expect(await backfillProofDerivatives(t.deps, () => true)).toBe(0);
  });
});
