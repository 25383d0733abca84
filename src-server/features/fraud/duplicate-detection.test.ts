// The detection table, printed as a confusion matrix: realistic phone screenshots (one phone's
// status and navigation bars on all of them, seven apps' frames in light and dark themes, many
// screens of each) are stored as proofs; altered copies of some of them (as workers send them
// again) are looked up through the real lookup (the indexed bands, then the print), and every
// stored screenshot is looked up against all the others, which are all different screens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proofPrints } from '../../storage/image';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission, makeTask } from '../../testing/money-factories';
import { ALTERATIONS, differentScreens, phoneScreenshot, type Screen } from '../../testing/phone-screenshots';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { proofLookupColumns } from './fingerprint-bands';
import { findDuplicateProofs } from './signals';

/** 7 apps x 2 themes x 40 screens each */
const DISTINCT = 560;
/** the first this many (every app and theme) are copied in every way */
const COPIED = 56;

let t: TestApp;
const stored: { id: string; taskId: string; probes: Awaited<ReturnType<typeof proofPrints>>['probes'] }[] =
  [];
const originals: { screen: Screen; png: Buffer }[] = [];
let ownerId: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await makeUser(t.deps.db);
  ownerId = owner._id;
  const taskId = await makeTask(t.deps.db, { max_completions: DISTINCT + 10 });
  for (const [i, screen] of differentScreens(DISTINCT).entries()) {
    const png = await phoneScreenshot(screen);
    if (i < COPIED) originals.push({ screen, png });
    const prints = await proofPrints(png);
    // each proof by its own task, so every other one is "this account, another task"
    const { submissionId } = await makePendingSubmission(t.deps.db, owner._id, {
      taskId: i === 0 ? taskId : undefined,
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
    stored.push({ id: submissionId, taskId: row.task_id, probes: prints.probes });
  }
}, 400_000);
afterAll(() => t.dispose());

describe('the duplicate proof signal over realistic phone screenshots', () => {
  it('flags at least 95 % of altered copies and under 1 % of different screenshots', async () => {
    const lines: string[] = [];
    let caughtAll = 0;
    let copiesAll = 0;
    const rates: number[] = [];
    for (const [name, alter] of ALTERATIONS) {
      let caught = 0;
      for (let i = 0; i < COPIED; i++) {
        const prints = await proofPrints(await alter(originals[i].screen, originals[i].png));
        // sent by another account for another task
        const match = await findDuplicateProofs(t.deps.db, {
          userId: 'another-account',
          taskId: 'another-task',
          probes: prints.probes,
        });
        if (match?.ids.includes(stored[i].id)) caught++;
      }
      caughtAll += caught;
      copiesAll += COPIED;
      rates.push(caught / COPIED);
      lines.push(`| ${name} | ${caught} / ${COPIED} | ${((100 * caught) / COPIED).toFixed(0)} % |`);
    }
    // each stored proof looked up as if sent again by its account for its own task: any match
    // is another, different screenshot
    let falseMatches = 0;
    for (const proof of stored) {
      const match = await findDuplicateProofs(t.deps.db, {
        userId: ownerId,
        taskId: proof.taskId,
        probes: proof.probes,
      });
      if (match) falseMatches++;
    }
    const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
    console.log(
      [
        `duplicate proofs among ${DISTINCT} stored phone screenshots (7 apps, light and dark, one phone's bars), copies of the first ${COPIED}:`,
        '',
        '| copy | flagged | rate |',
        '|---|---|---|',
        ...lines,
        `| every copy | ${caughtAll} / ${copiesAll} | ${pct(caughtAll, copiesAll)} |`,
        '',
        'confusion matrix:',
        '',
        '| | flagged | not flagged |',
        '|---|---|---|',
        `| altered copy (${copiesAll}) | ${caughtAll} (${pct(caughtAll, copiesAll)}) | ${copiesAll - caughtAll} |`,
        `| different screenshot (${DISTINCT}) | ${falseMatches} (${pct(falseMatches, DISTINCT)}) | ${DISTINCT - falseMatches} |`,
      ].join('\n'),
    );
    expect(caughtAll / copiesAll).toBeGreaterThanOrEqual(0.95);
    // no single kind of copy slips through: a sticker over the content is the hardest
    for (const rate of rates) expect(rate).toBeGreaterThanOrEqual(0.9);
    expect(falseMatches / DISTINCT).toBeLessThan(0.01);
  }, 400_000);
});
