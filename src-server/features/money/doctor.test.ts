import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/ids';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { type ProblemCheck, runMoneyChecks } from './doctor';
import { credit } from './ledger';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.dispose();
});

/** Approves a submission the proper way: status, reward row and balance together. */
async function approveProperly(db: Db, userId: string, submissionId: string, reward: number) {
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('submissions').set({ status: 'approved' }).where('_id', '=', submissionId).execute();
    await credit(tx, { userId, amount: reward, kind: 'reward', ref: submissionId, actorId: 'a' });
  });
}

const checks = async () => (await runMoneyChecks(t.deps.db)).map((p) => p.check);

describe('runMoneyChecks', () => {
  it('finds nothing wrong in a database where money moved only through the ledger', async () => {
    const user = await makeUser(t.deps.db);
    const { submissionId } = await makePendingSubmission(t.deps.db, user._id, { reward: 4000 });
    await approveProperly(t.deps.db, user._id, submissionId, 4000);
    const w = await makeWithdrawal(t.deps.db, user._id, { amount: 2500 });
    await t.deps.db.transaction().execute(async (tx) => {
      await tx.updateTable('withdrawals').set({ status: 'rejected' }).where('_id', '=', w).execute();
      await credit(tx, { userId: user._id, amount: 2500, kind: 'withdrawal_refund', ref: w, actorId: 'a' });
    });
    await makeWithdrawal(t.deps.db, user._id, { amount: 2000 });
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it.each<[string, (db: Db, userId: string) => Promise<void>, ProblemCheck[]]>([
    [
      'a balance changed without a ledger row',
      async (db, userId) => {
        await db.updateTable('users').set({ balance: 999 }).where('_id', '=', userId).execute();
      },
      ['ledger_sum'],
    ],
    [
      'total earned changed without a reward',
      async (db, userId) => {
        await db.updateTable('users').set({ total_earned: 5 }).where('_id', '=', userId).execute();
      },
      ['total_earned'],
    ],
    [
      'an approved submission that was never paid',
      async (db, userId) => {
        const { submissionId } = await makePendingSubmission(db, userId);
        await db
          .updateTable('submissions')
          .set({ status: 'approved' })
          .where('_id', '=', submissionId)
          .execute();
      },
      ['reward_missing'],
    ],
    [
      'an approved submission paid the wrong amount',
      async (db, userId) => {
        const { submissionId } = await makePendingSubmission(db, userId, { reward: 1000 });
        await approveProperly(db, userId, submissionId, 900);
      },
      ['reward_missing'],
    ],
    [
      'a reward paid for a submission still pending',
      async (db, userId) => {
        const { submissionId } = await makePendingSubmission(db, userId, { reward: 1000 });
        await db
          .transaction()
          .execute((tx) =>
            credit(tx, { userId, amount: 1000, kind: 'reward', ref: submissionId, actorId: 'a' }),
          );
      },
      ['reward_orphan'],
    ],
    [
      'a withdrawal with no hold',
      async (db, userId) => {
        const now = nowIso();
        await db
          .insertInto('withdrawals')
          .values({
            _id: 'w-no-hold',
            user_id: userId,
            amount: 100,
            payment_method: 'papara',
            full_name: 'A',
            account_number: '1234567890',
            status: 'pending',
            rejection_reason: null,
            description: null,
            created_at: now,
            updated_at: now,
            reviewed_by: null,
            reviewed_at: null,
          })
          .execute();
      },
      ['hold_missing'],
    ],
    [
      'a rejected withdrawal that was never refunded',
      async (db, userId) => {
        const w = await makeWithdrawal(db, userId, { amount: 100 });
        await db.updateTable('withdrawals').set({ status: 'rejected' }).where('_id', '=', w).execute();
      },
      ['refund_wrong'],
    ],
    [
      'a pending withdrawal that was refunded',
      async (db, userId) => {
        const w = await makeWithdrawal(db, userId, { amount: 100 });
        await db
          .transaction()
          .execute((tx) =>
            credit(tx, { userId, amount: 100, kind: 'withdrawal_refund', ref: w, actorId: 'a' }),
          );
      },
      ['refund_wrong'],
    ],
    [
      'a hold row that belongs to no withdrawal',
      async (db, userId) => {
        await db.transaction().execute(async (tx) => {
          await tx
            .updateTable('users')
            .set((eb) => ({ balance: eb('balance', '-', 100) }))
            .where('_id', '=', userId)
            .execute();
          await tx
            .insertInto('ledger')
            .values({
              user_id: userId,
              amount: -100,
              kind: 'withdrawal_hold',
              ref: 'nothing',
              actor_id: null,
              created_at: nowIso(),
            })
            .execute();
        });
      },
      ['ledger_orphan'],
    ],
  ])('reports %s', async (_name, breakIt, expected) => {
    const user = await makeUser(t.deps.db, { name: 'Zeynep' });
    await fund(t.deps.db, user._id, 10_000);
    await breakIt(t.deps.db, user._id);
    expect(await checks()).toEqual(expected);
  });

  it('says which user and which figures disagree', async () => {
    const user = await makeUser(t.deps.db, { name: 'Zeynep' });
    await fund(t.deps.db, user._id, 1000);
    await t.deps.db.updateTable('users').set({ balance: 1500 }).where('_id', '=', user._id).execute();
    expect(await runMoneyChecks(t.deps.db)).toEqual([
      {
        check: 'ledger_sum',
        message: `user Zeynep (${user._id}): balance ₺15.00 but the ledger sums to ₺10.00`,
      },
    ]);
  });
});
