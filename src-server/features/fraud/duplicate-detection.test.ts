// The detection table: copies of generated screenshots as they come back to us
// (re-encoded, resized, cropped by a few percent, lightly recoloured, all of these at once) are
// found by the real lookup (the four indexed bands, then the hash and print thresholds) among
// 1,000 stored proofs, and 1,000 different screenshots do not match one another.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proofPrints } from '../../storage/image';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission, makeTask } from '../../testing/money-factories';
import { screenshot } from '../../testing/screenshots';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { proofLookupColumns } from './fingerprint-bands';
import { findDuplicateProofs } from './signals';

const DISTINCT = 1000;
const COPIED = 100;

/** Copies of a 390 x 844 screenshot as they reach us again. */
const COPIES: [string, (png: Buffer) => Promise<Buffer>][] = [
  ['re-encoded as a JPEG of quality 60', (png) => sharp(png).jpeg({ quality: 60 }).toBuffer()],
  ['re-encoded as a JPEG of quality 40', (png) => sharp(png).jpeg({ quality: 40 }).toBuffer()],
  ['resized to 75 %', (png) => sharp(png).resize(292).png().toBuffer()],
  ['resized to 150 % (a denser screen)', (png) => sharp(png).resize(585).jpeg({ quality: 85 }).toBuffer()],
  [
    'cropped by 2 % (status bar) and 1 % of each side',
    (png) => sharp(png).extract({ left: 4, top: 17, width: 382, height: 827 }).png().toBuffer(),
  ],
  [
    'cropped by 3 % at the bottom (navigation bar)',
    (png) => sharp(png).extract({ left: 0, top: 0, width: 390, height: 819 }).png().toBuffer(),
  ],
  [
    'cropped by 3 % at the top and 1.5 % of each side',
    (png) => sharp(png).extract({ left: 6, top: 25, width: 378, height: 810 }).png().toBuffer(),
  ],
  [
    'lightly recoloured (brighter, less saturated)',
    (png) => sharp(png).modulate({ brightness: 1.06, saturation: 0.85 }).png().toBuffer(),
  ],
  [
    'all at once: cropped, resized, recoloured, JPEG 70',
    (png) =>
      sharp(png)
        .extract({ left: 4, top: 17, width: 382, height: 827 })
        .resize(300)
        .modulate({ brightness: 1.06, saturation: 0.85 })
        .jpeg({ quality: 70 })
        .toBuffer(),
  ],
];

let t: TestApp;
const stored: { id: string; taskId: string; hash: string; print: string }[] = [];
const originals: Buffer[] = [];
let ownerId: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await makeUser(t.deps.db);
  ownerId = owner._id;
  const taskId = await makeTask(t.deps.db, { max_completions: DISTINCT + 10 });
  for (let seed = 1; seed <= DISTINCT; seed++) {
    const png = await screenshot(seed);
    if (seed <= COPIED) originals.push(png);
    const prints = await proofPrints(png);
    // each proof by its own task, so every other one is "this account, another task"
    const { submissionId } = await makePendingSubmission(t.deps.db, owner._id, {
      taskId: seed === 1 ? taskId : undefined,
    });
    const row = await t.deps.db
      .selectFrom('submissions')
      .select('task_id')
      .where('_id', '=', submissionId)
      .executeTakeFirstOrThrow();
    await t.deps.db
      .updateTable('submissions')
      .set({ proof_hash: prints.hash, ...proofLookupColumns(prints) })
      .where('_id', '=', submissionId)
      .execute();
    stored.push({ id: submissionId, taskId: row.task_id, ...prints });
  }
}, 240_000);
afterAll(() => t.dispose());

describe('the duplicate proof signal over generated screenshots', () => {
  it('catches at least 95 % of each kind of copy, and under 1 % of 1,000 different screenshots match', async () => {
    const lines: string[] = [];
    let caughtAll = 0;
    let copiesAll = 0;
    const rates: number[] = [];
    for (const [name, copy] of COPIES) {
      let caught = 0;
      for (let i = 0; i < COPIED; i++) {
        const prints = await proofPrints(await copy(originals[i]));
        // sent by another account for another task
        const match = await findDuplicateProofs(t.deps.db, {
          userId: 'another-account',
          taskId: 'another-task',
          ...prints,
        });
        if (match?.ids.includes(stored[i].id)) caught++;
      }
      caughtAll += caught;
      copiesAll += COPIED;
      rates.push(caught / COPIED);
      lines.push(`| ${name} | ${caught} / ${COPIED} | ${((100 * caught) / COPIED).toFixed(0)} % |`);
    }
    // each stored proof looked up as if sent again by its account for its own task: any match
    // is another of the 1,000 different screenshots
    let falseMatches = 0;
    for (const proof of stored) {
      const match = await findDuplicateProofs(t.deps.db, {
        userId: ownerId,
        taskId: proof.taskId,
        hash: proof.hash,
        print: proof.print,
      });
      if (match) falseMatches++;
    }
    console.log(
      [
        `duplicate proofs among ${DISTINCT} stored screenshots (copies of the first ${COPIED}):`,
        '| copy | caught | rate |',
        '|---|---|---|',
        ...lines,
        `| every copy | ${caughtAll} / ${copiesAll} | ${((100 * caughtAll) / copiesAll).toFixed(1)} % |`,
        `different screenshots matched to another: ${falseMatches} of ${DISTINCT} (${((100 * falseMatches) / DISTINCT).toFixed(1)} %)`,
      ].join('\n'),
    );
    for (const rate of rates) expect(rate).toBeGreaterThanOrEqual(0.95);
    expect(falseMatches / DISTINCT).toBeLessThan(0.01);
  }, 240_000);
});
