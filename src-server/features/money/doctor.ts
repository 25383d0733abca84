import { type SqlBool, sql } from 'kysely';
import { formatLiraPlain as tl } from '../../contract/withdrawals';
import type { Db } from '../../db/database';

export type ProblemCheck =
  | 'ledger_sum'
  | 'negative_balance'
  | 'total_earned'
  | 'reward_missing'
  | 'reward_orphan'
  | 'hold_missing'
  | 'refund_wrong'
  | 'ledger_orphan';

/** One broken money rule, in words an operator can act on. */
export interface Problem {
  check: ProblemCheck;
  message: string;
}

async function balances(db: Db): Promise<Problem[]> {
  const sums = db
    .selectFrom('ledger')
    .select((eb) => [
      'user_id',
      eb.fn.sum<number>('amount').as('total'),
      eb.fn
        .sum<number>(eb.case().when('kind', '=', 'reward').then(eb.ref('amount')).else(0).end())
        .as('rewards'),
    ])
    .groupBy('user_id')
    .as('l');
  const rows = await db
    .selectFrom('users as u')
    .leftJoin(sums, 'l.user_id', 'u._id')
    .select(['u._id', 'u.name', 'u.balance', 'u.total_earned', 'l.total', 'l.rewards'])
    .where((eb) =>
      eb.or([
        eb(eb.fn.coalesce('l.total', eb.lit(0)), '<>', eb.ref('u.balance')),
        eb(eb.fn.coalesce('l.rewards', eb.lit(0)), '<>', eb.ref('u.total_earned')),
        eb('u.balance', '<', 0),
      ]),
    )
    .execute();
  const out: Problem[] = [];
  for (const r of rows) {
    const who = `user ${r.name} (${r._id})`;
    const total = Number(r.total ?? 0);
    const rewards = Number(r.rewards ?? 0);
    if (r.balance < 0)
      out.push({ check: 'negative_balance', message: `${who}: negative balance ${tl(r.balance)}` });
    if (total !== r.balance) {
      out.push({
        check: 'ledger_sum',
        message: `${who}: balance ${tl(r.balance)} but the ledger sums to ${tl(total)}`,
      });
    }
    if (rewards !== r.total_earned) {
      out.push({
        check: 'total_earned',
        message: `${who}: total earned ${tl(r.total_earned)} but the reward rows sum to ${tl(rewards)}`,
      });
    }
  }
  return out;
}

async function rewards(db: Db): Promise<Problem[]> {
  const unpaid = await db
    .selectFrom('submissions as s')
    // the literal kind <> 'adjustment' lets SQLite use the partial index ledger_once (a bound
    // 'reward' does not prove it): without it the ledger was scanned once per approved
    // submission, minutes at 50,000 submissions and never finishing at 1,000,000 (npm run bench)
    .leftJoin('ledger as l', (j) =>
      j.onRef('l.ref', '=', 's._id').on('l.kind', '=', 'reward').on(sql<SqlBool>`l.kind <> 'adjustment'`),
    )
    .where('s.status', '=', 'approved')
    .groupBy(['s._id', 's.reward', 's.user_id'])
    .select((eb) => [
      's._id',
      's.reward',
      eb.fn.count<number>('l.id').as('n'),
      eb.fn.sum<number>('l.amount').as('paid'),
      eb.fn
        .sum<number>(eb.case().when('l.user_id', '<>', eb.ref('s.user_id')).then(1).else(0).end())
        .as('wrongUser'),
    ])
    .having((eb) =>
      eb.or([
        eb(eb.fn.count('l.id'), '<>', 1),
        eb(eb.fn.sum('l.amount'), '<>', eb.ref('s.reward')),
        eb(sql`sum(case when l.user_id <> s.user_id then 1 else 0 end)`, '>', 0),
      ]),
    )
    .execute();
  const out: Problem[] = unpaid.map((r) => ({
    check: 'reward_missing',
    message:
      `approved submission ${r._id} (reward ${tl(r.reward)}): ${Number(r.n)} reward row(s) ` +
      `totalling ${tl(Number(r.paid ?? 0))}${Number(r.wrongUser) > 0 ? ', paid to another user' : ''}, expected exactly one`,
  }));
  const orphans = await db
    .selectFrom('ledger as l')
    .leftJoin('submissions as s', 's._id', 'l.ref')
    .where('l.kind', '=', 'reward')
    .where((eb) => eb.or([eb('s._id', 'is', null), eb('s.status', '<>', 'approved')]))
    .select(['l.id', 'l.ref', 'l.amount', 's.status'])
    .execute();
  for (const r of orphans) {
    out.push({
      check: 'reward_orphan',
      message: `reward row ${r.id} of ${tl(r.amount)} for ${r.status ? `a ${r.status}` : 'a missing'} submission ${r.ref}`,
    });
  }
  return out;
}

async function withdrawals(db: Db): Promise<Problem[]> {
  const rows = await db
    .selectFrom('withdrawals as w')
    .leftJoin('ledger as l', (j) =>
      j
        .onRef('l.ref', '=', 'w._id')
        .onRef('l.user_id', '=', 'w.user_id')
        .on('l.kind', 'in', ['withdrawal_hold', 'withdrawal_refund']),
    )
    .groupBy(['w._id', 'w.amount', 'w.status'])
    .select((eb) => [
      'w._id',
      'w.amount',
      'w.status',
      eb.fn.sum<number>(eb.case().when('l.kind', '=', 'withdrawal_hold').then(1).else(0).end()).as('holds'),
      eb.fn
        .sum<number>(eb.case().when('l.kind', '=', 'withdrawal_hold').then(eb.ref('l.amount')).else(0).end())
        .as('held'),
      eb.fn
        .sum<number>(eb.case().when('l.kind', '=', 'withdrawal_refund').then(1).else(0).end())
        .as('refunds'),
      eb.fn
        .sum<number>(
          eb.case().when('l.kind', '=', 'withdrawal_refund').then(eb.ref('l.amount')).else(0).end(),
        )
        .as('refunded'),
    ])
    .execute();
  const out: Problem[] = [];
  for (const r of rows) {
    const what = `${r.status} withdrawal ${r._id} of ${tl(r.amount)}`;
    const [holds, held, refunds, refunded] = [r.holds, r.held, r.refunds, r.refunded].map((v) =>
      Number(v ?? 0),
    );
    if (holds !== 1 || held !== -r.amount) {
      out.push({
        check: 'hold_missing',
        message: `${what}: ${holds} hold row(s) totalling ${tl(held)}, expected one of ${tl(-r.amount)}`,
      });
    }
    const expected = r.status === 'rejected' ? 1 : 0;
    if (refunds !== expected || refunded !== expected * r.amount) {
      out.push({
        check: 'refund_wrong',
        message: `${what}: ${refunds} refund row(s) totalling ${tl(refunded)}, expected ${expected === 1 ? `one of ${tl(r.amount)}` : 'none'}`,
      });
    }
  }
  const orphans = await db
    .selectFrom('ledger as l')
    .leftJoin('withdrawals as w', (j) => j.onRef('w._id', '=', 'l.ref').onRef('w.user_id', '=', 'l.user_id'))
    .where('l.kind', 'in', ['withdrawal_hold', 'withdrawal_refund'])
    .where('w._id', 'is', null)
    .select(['l.id', 'l.kind', 'l.ref', 'l.user_id'])
    .execute();
  for (const r of orphans) {
    out.push({
      check: 'ledger_orphan',
      message: `${r.kind} row ${r.id} of user ${r.user_id} points at no withdrawal of theirs (${r.ref})`,
    });
  }
  return out;
}

/**
 * Proves the money rules over the whole database: every balance equals its
 * ledger sum and is not negative, total earned equals the rewards, every approved submission
 * was paid exactly once and nothing else was, every withdrawal was held once and refunded
 * once if and only if it was rejected. Returns the problems found; empty when all is well.
 */
export async function runMoneyChecks(db: Db): Promise<Problem[]> {
  return [...(await balances(db)), ...(await rewards(db)), ...(await withdrawals(db))];
}
