import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proofFingerprint } from '../../storage/image';
import { jpegFile, pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission } from '../../testing/money-factories';
import { phoneScreenshot } from '../../testing/phone-screenshots';
import { createTestApp, type TestApp, testsOnPostgres } from '../../testing/test-app';
import { insertFlag } from '../fraud/fraud.repository';
import { backfillProofDerivatives } from './proof-backfill';
import { proofBacklog, proofsNaming } from './submissions.repository';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.dispose());

describe('the proof thumbnail backfill', () => {
  it('gives proofs stored before thumbnails theirs and their fingerprint, once', async () => {
    const store = t.deps.files;
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

  it('judges duplicate flags again with the new prints: a copy flagged against the older proof, a stale flag removed, a dismissed one kept', async () => {
    const store = t.deps.files;
    const proof = async (userId: string, png: Buffer, createdAt: string) => {
      const { submissionId } = await makePendingSubmission(t.deps.db, userId, { createdAt });
      const name = await store.save('proofs', png, 'image/png');
      await t.deps.db
        .updateTable('submissions')
        .set({ proof_file: name })
        .where('_id', '=', submissionId)
        .execute();
      return submissionId;
    };
    const [a, b, c] = [await makeUser(t.deps.db), await makeUser(t.deps.db), await makeUser(t.deps.db)];
    const screen = { app: 'shop', dark: true, seed: 77 } as const;
    const original = await proof(a._id, await phoneScreenshot(screen), '2026-01-01T10:00:00.000Z');
    // inserted in the opposite order of their times: the backfill goes by time, not by id
    const copied = await sharp(await phoneScreenshot({ ...screen, clock: '01:02', battery: 5 }))
      .extract({ left: 0, top: 60, width: 390, height: 784 })
      .jpeg({ quality: 60 })
      .toBuffer();
    const copy = await proof(b._id, copied, '2026-01-02T10:00:00.000Z');
    const otherApp = await proof(
      c._id,
      await phoneScreenshot({ ...screen, app: 'chat' }),
      '2026-01-03T10:00:00.000Z',
    );
    const dismissedOne = await proof(
      c._id,
      await phoneScreenshot({ ...screen, app: 'bank' }),
      '2026-01-04T10:00:00.000Z',
    );
    // the whole-picture prints had flagged the other apps (the same phone's bars)
    for (const [id, dismissed] of [
      [otherApp, false],
      [dismissedOne, true],
    ] as const) {
      await insertFlag(t.deps.db, {
        itemType: 'submission',
        itemId: id,
        userId: c._id,
        kind: 'duplicate_proof',
        en: 'The screenshot matches 1 earlier proof',
        tr: 'Ekran görüntüsü 1 kanıtla eşleşiyor',
        related: [original],
        at: '2026-01-05T10:00:00.000Z',
      });
      if (dismissed)
        await t.deps.db
          .updateTable('flags')
          .set({ dismissed_at: '2026-01-06T10:00:00.000Z', dismissed_by: a._id, dismiss_note: 'checked' })
          .where('item_id', '=', id)
          .execute();
    }
    expect(await backfillProofDerivatives(t.deps)).toBe(4);
    const flags = await t.deps.db
      .selectFrom('flags')
      .selectAll()
      .where('item_id', 'in', [original, copy, otherApp, dismissedOne])
      .execute();
    expect(flags.map((f) => f.item_id).sort()).toEqual([copy, dismissedOne].sort());
    const flag = flags.find((f) => f.item_id === copy)!;
    expect(JSON.parse(flag.related)).toEqual([original]);
    expect(flag.message_en).toMatch(/^\d+% similar to 1 earlier proof \(1 by another account\)/);
    expect(flag.message_tr).toMatch(/^Daha önce gönderilmiş 1 kanıta %\d+ benziyor/);
    expect(flags.find((f) => f.item_id === dismissedOne)?.dismiss_note).toBe('checked');
  });

  it('asks for its backlog through an index of the backlog alone, not a walk of every submission', async () => {
    // the walk held the one event loop for 5.8 s after every start at a million submissions
    if (testsOnPostgres) {
      const { rows } = await sql<{ indexdef: string }>`
        SELECT indexdef FROM pg_indexes WHERE indexname = 'submissions_proof_backlog'`.execute(t.deps.db);
      expect(rows[0]?.indexdef).toMatch(
        /\(created_at, _id\) WHERE \(\(proof_print IS NULL\) AND \(proof_file IS NOT NULL\)\)/,
      );
      return;
    }
    const compiled = proofBacklog(t.deps.db, { at: '2026-01-01', id: 'x' }, 50).compile();
    const plan = await t.deps.db.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
    });
    expect(plan.rows.map((r) => r.detail)).toEqual([
      'SCAN submissions USING INDEX submissions_proof_backlog',
    ]);
  });

  it('asks which proof files a submission names through an index per name (the start clearing a crash)', async () => {
    // each batch of 500 names walked every submission: a start grew with files x submissions
    if (testsOnPostgres) {
      const { rows } = await sql<{ indexname: string }>`
        SELECT indexname FROM pg_indexes WHERE indexname IN ('submissions_proof_file', 'submissions_proof_thumb')
        ORDER BY indexname`.execute(t.deps.db);
      expect(rows.map((r) => r.indexname)).toEqual(['submissions_proof_file', 'submissions_proof_thumb']);
      return;
    }
    const compiled = proofsNaming(t.deps.db, ['a.png', 'b.webp']).compile();
    const plan = await t.deps.db.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
    });
    const details = plan.rows.map((r) => r.detail);
    expect(details).toContain('SEARCH submissions USING INDEX submissions_proof_file (proof_file=?)');
    expect(details).toContain('SEARCH submissions USING INDEX submissions_proof_thumb (proof_thumb=?)');
    expect(details.some((d) => d.startsWith('SCAN submissions'))).toBe(false);
  });

  it('stops when asked', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id);
    const name = await t.deps.files.save('proofs', pngFile(20, 20), 'image/png');
    await t.deps.db
      .updateTable('submissions')
      .set({ proof_file: name })
      .where('_id', '=', submissionId)
      .execute();
    expect(await backfillProofDerivatives(t.deps, () => true)).toBe(0);
  });
});
