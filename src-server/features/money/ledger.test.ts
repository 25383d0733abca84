import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { runMoneyChecks } from './doctor';
import { adjustBalance, credit, debit } from './ledger';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.dispose();
});

const balanceOf = async (id: string) =>
  t.deps.db
    .selectFrom('users')
    .select(['balance', 'total_earned'])
    .where('_id', '=', id)
    .executeTakeFirstOrThrow();
const ledgerOf = (id: string) =>
  t.deps.db
    .selectFrom('ledger')
    .select(['amount', 'kind', 'ref', 'actor_id'])
    .where('user_id', '=', id)
    .orderBy('id')
    .execute();

describe('the ledger', () => {
  it('credits a reward to the balance and to total earned with one row', async () => {
    const user = await makeUser(t.deps.db);
    await t.deps.db
      .transaction()
      .execute((tx) =>
        credit(tx, { userId: user._id, amount: 1250, kind: 'reward', ref: 's1', actorId: 'admin' }),
      );
    expect(await balanceOf(user._id)).toEqual({ balance: 1250, total_earned: 1250 });
    expect(await ledgerOf(user._id)).toEqual([
      { amount: 1250, kind: 'reward', ref: 's1', actor_id: 'admin' },
    ]);
  });

  it('credits a refund to the balance only', async () => {
    const user = await makeUser(t.deps.db);
    await t.deps.db
      .transaction()
      .execute((tx) =>
        credit(tx, { userId: user._id, amount: 300, kind: 'withdrawal_refund', ref: 'w1', actorId: 'admin' }),
      );
    expect(await balanceOf(user._id)).toEqual({ balance: 300, total_earned: 0 });
  });

  it('debits only when the balance covers the amount, and writes nothing otherwise', async () => {
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 1000);
    const results = await t.deps.db.transaction().execute(async (tx) => [
      await debit(tx, {
        userId: user._id,
        amount: 600,
        kind: 'withdrawal_hold',
        ref: 'w1',
        actorId: user._id,
      }),
      await debit(tx, {
        userId: user._id,
        amount: 600,
        kind: 'withdrawal_hold',
        ref: 'w2',
        actorId: user._id,
      }),
      await debit(tx, {
        userId: user._id,
        amount: 400,
        kind: 'withdrawal_hold',
        ref: 'w3',
        actorId: user._id,
      }),
    ]);
    expect(results).toEqual([true, false, true]);
    expect((await balanceOf(user._id)).balance).toBe(0);
    expect((await ledgerOf(user._id)).map((r) => r.amount)).toEqual([1000, -600, -400]);
  });

  it('refuses an amount that is not a positive whole number of kuruş', async () => {
    const user = await makeUser(t.deps.db);
    for (const amount of [0, -5, 1.5, Number.NaN]) {
      await expect(
        t.deps.db
          .transaction()
          .execute((tx) =>
            credit(tx, { userId: user._id, amount, kind: 'adjustment', ref: null, actorId: 'a' }),
          ),
      ).rejects.toThrow(/kuruş/);
    }
  });

  it('reports an unknown user instead of writing a row', async () => {
    const ok = await t.deps.db
      .transaction()
      .execute((tx) =>
        credit(tx, { userId: 'nobody', amount: 100, kind: 'adjustment', ref: null, actorId: 'a' }),
      );
    expect(ok).toBe(false);
    expect(await t.deps.db.selectFrom('ledger').selectAll().execute()).toEqual([]);
  });

  it('rolls the balance back with the transaction when a later step fails', async () => {
    const user = await makeUser(t.deps.db);
    await expect(
      t.deps.db.transaction().execute(async (tx) => {
        await credit(tx, { userId: user._id, amount: 500, kind: 'reward', ref: 's1', actorId: 'a' });
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await balanceOf(user._id)).toEqual({ balance: 0, total_earned: 0 });
    expect(await ledgerOf(user._id)).toEqual([]);
  });

  it('refuses a second reward row for the same submission (the unique index)', async () => {
    const user = await makeUser(t.deps.db);
    const pay = () =>
      t.deps.db
        .transaction()
        .execute((tx) =>
          credit(tx, { userId: user._id, amount: 500, kind: 'reward', ref: 's1', actorId: 'a' }),
        );
    await pay();
    await expect(pay()).rejects.toThrow();
    expect(await balanceOf(user._id)).toEqual({ balance: 500, total_earned: 500 });
  });

  it('keeps ledger rows append-only', async () => {
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 100);
    await expect(t.deps.db.updateTable('ledger').set({ amount: 1 }).execute()).rejects.toThrow(/append-only/);
    await expect(t.deps.db.deleteFrom('ledger').execute()).rejects.toThrow(/append-only/);
  });
});

describe('adjustBalance', () => {
  it.each<[string, number, number, number[]]>([
    ['raises a balance with a positive adjustment', 1000, 2500, [1000, 1500]],
    ['lowers a balance with a negative adjustment', 1000, 250, [1000, -750]],
    ['empties a balance', 1000, 0, [1000, -1000]],
    ['writes nothing when the balance does not change', 1000, 1000, [1000]],
  ])('%s', async (_name, start, target, rows) => {
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, start);
    const result = await t.deps.db
      .transaction()
      .execute((tx) => adjustBalance(tx, user._id, target, 'admin-1'));
    expect(result).toEqual({ previous: start, next: target, delta: target - start });
    expect((await balanceOf(user._id)).balance).toBe(target);
    expect((await ledgerOf(user._id)).map((r) => r.amount)).toEqual(rows);
    expect((await ledgerOf(user._id)).at(-1)?.actor_id).toBe(rows.length > 1 ? 'admin-1' : 'test-admin');
    expect(await runMoneyChecks(t.deps.db)).toEqual([]);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses the balance %s with invalid_amount',
    async (value) => {
      const user = await makeUser(t.deps.db);
      await expect(
        t.deps.db.transaction().execute((tx) => adjustBalance(tx, user._id, value, 'admin-1')),
      ).rejects.toMatchObject({ status: 422, code: 'invalid_amount' });
    },
  );

  it('refuses an unknown user with user_not_found', async () => {
    await expect(
      t.deps.db.transaction().execute((tx) => adjustBalance(tx, 'nobody', 100, 'admin-1')),
    ).rejects.toMatchObject({ status: 404, code: 'user_not_found' });
  });
});
