// The migration to the part lookup keys over the proofs stored before it, on the run's engine
// (SQLite, or PostgreSQL with TEST_DATABASE_URL): each proof's keys are made from its print as
// the app makes them, a proof with an old kind of print gets none (the backfill makes them),
// the lookup finds the stored proofs afterwards, and doctor checks the keys.
import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate';
import { migrations } from '../../db/migrations';
import type { DB } from '../../db/schema';
import { emptyUnmigratedDatabase } from '../../testing/empty-database';
import { makeUser } from '../../testing/factories';
import { makePendingSubmission } from '../../testing/money-factories';
import { BAND_COLUMNS, bandsOf } from './fingerprint-bands';
import { checkProofBands } from './flag-doctor';
import { findDuplicateProofs } from './signals';

let db: Kysely<DB>;
let done: () => Promise<void>;
beforeAll(async () => {
  ({ db, done } = await emptyUnmigratedDatabase('band-migration'));
});
afterAll(() => done());

/** `count` random hex strings of `digits` digits, from a seeded generator. */
function randomHex(count: number, digits: number): string[] {
  let s = 12345;
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 12) & 0xf;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: digits }, () => next().toString(16)).join(''),
  );
}
const HASHES = randomHex(40, 16);
// content prints, with the extremes of a part's first digits among them (all set, none, upper case)
const PRINTS = randomHex(40, 160).map((p, i) => {
  const at = 64 + (i % 6) * 16;
  const edge = ['ffffff', '000000', 'ABCDEF', '800001'][i % 4];
  return i < 8 ? p.slice(0, at) + edge + p.slice(at + 6) : p;
});

describe('the part lookup keys migration', () => {
  it('makes every stored proof the keys the app makes from its print, and the lookup finds them', async () => {
    const migrator = new Migrator({
      db: db as unknown as Kysely<unknown>,
      provider: { getMigrations: async () => migrations },
    });
    expect((await migrator.migrateTo('2026-12-01-1300-user-notes')).error).toBeUndefined();
    const owner = await makeUser(db);
    const ids: string[] = [];
    for (const [i, hash] of HASHES.entries()) {
      const { submissionId } = await makePendingSubmission(db, owner._id);
      // as the code before wrote them: four 16-bit bands of the hash
      const old = [0, 1, 2, 3].map((b) => Number.parseInt(hash.slice(b * 4, b * 4 + 4), 16));
      await sql`UPDATE submissions SET proof_hash = ${hash}, proof_print = ${PRINTS[i]}, proof_b0 = ${old[0]},
        proof_b1 = ${old[1]}, proof_b2 = ${old[2]}, proof_b3 = ${old[3]} WHERE _id = ${submissionId}`.execute(
        db,
      );
      ids.push(submissionId);
    }
    // one with a print of the old whole-picture kind and its bands: no keys until the backfill
    const old = (await makePendingSubmission(db, owner._id)).submissionId;
    await sql`UPDATE submissions SET proof_hash = '0123456789abcdef', proof_print = ${'ab'.repeat(32)},
      proof_b0 = 1, proof_b1 = 2, proof_b2 = 3, proof_b3 = 4 WHERE _id = ${old}`.execute(db);

    expect(await migrateToLatest(db)).toContain('2026-12-02-0900-part-lookup-keys');
    const rows = await db
      .selectFrom('submissions')
      .select(['_id', ...BAND_COLUMNS])
      .where('_id', 'in', [...ids, old])
      .execute();
    const byId = new Map(rows.map((r) => [r._id, r]));
    for (const [i, id] of ids.entries()) {
      const row = byId.get(id);
      expect(
        BAND_COLUMNS.map((c) => row?.[c]),
        PRINTS[i],
      ).toEqual(bandsOf(PRINTS[i].toLowerCase()));
    }
    expect(BAND_COLUMNS.map((c) => byId.get(old)?.[c])).toEqual([null, null, null, null, null, null]);

    // the lookup finds a stored proof from its hash and print alone, sent by another account
    for (const i of [0, 3, 9]) {
      const match = await findDuplicateProofs(db, {
        userId: 'another-account',
        taskId: 'another-task',
        probes: [{ hash: HASHES[i], print: PRINTS[i].toLowerCase() }],
      });
      expect(match?.ids).toContain(ids[i]);
    }

    // doctor finds nothing wrong, then names a proof whose key is not its print's
    expect(await checkProofBands(db)).toEqual([]);
    await sql`UPDATE submissions SET proof_b4 = proof_b4 + 1 WHERE _id = ${ids[5]}`.execute(db);
    const found = await checkProofBands(db);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`submission ${ids[5]} has lookup keys`);
  });
});
