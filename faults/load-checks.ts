// The money checks after a load run, straight on the database (the server stopped): the
// rules `doctor` proves, re-checked here in plain SQL, the ones it does not cover, and the
// database against the clients' model of acknowledged money moves. The SQLite file, or a
// PostgreSQL database: the SQL is the same on both.
import Database from 'better-sqlite3';
import pg from 'pg';
import type { MoneyModel } from './load-world';

/** Where the run's database is: the SQLite file, or a postgres:// URL. */
export type DatabaseLocation = { file: string } | { url: string };

interface Reader {
  all<T>(sql: string, ...params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function openReader(where: DatabaseLocation): Promise<Reader> {
  if ('file' in where) {
    const db = new Database(where.file, { readonly: true, fileMustExist: true });
    return {
      all: async <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
      close: async () => {
        db.close();
      },
    };
  }
  // counts and sums arrive as text from pg: as numbers here, like SQLite's
  const client = new pg.Client({ connectionString: where.url });
  client.setTypeParser(20, Number);
  client.setTypeParser(1700, Number);
  await client.connect();
  return {
    async all<T>(sql: string, ...params: unknown[]) {
      let n = 0;
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows as T[];
    },
    close: () => client.end(),
  };
}

export interface MoneyTotals {
  users: number;
  balances: number;
  rewards: number;
  rewardRows: number;
  holds: number;
  holdRows: number;
  refunds: number;
  refundRows: number;
  adjustments: number;
  adjustmentRows: number;
  submissions: Record<string, number>;
  withdrawals: Record<string, number>;
}

const tl = (k: number) => `${(k / 100).toFixed(2)} TL`;

/** Returns the problems found (empty when all is well) and the totals for the report. */
export async function checkMoney(
  where: DatabaseLocation,
  model: MoneyModel,
  adminIds: ReadonlySet<string>,
): Promise<{ problems: string[]; totals: MoneyTotals }> {
  const db = await openReader(where);
  const problems: string[] = [];
  const all = <T>(sql: string, ...params: unknown[]) => db.all<T>(sql, ...params);
  const one = async <T>(sql: string, ...params: unknown[]) => (await db.all<T>(sql, ...params))[0] as T;
  try {
    // 1. every balance is its ledger sum, never negative; total earned is its reward rows
    for (const r of await all<{
      _id: string;
      balance: number;
      total_earned: number;
      sum: number;
      rewards: number;
    }>(
      `SELECT u._id, u.balance, u.total_earned,
              COALESCE((SELECT SUM(amount) FROM ledger l WHERE l.user_id = u._id), 0) AS sum,
              COALESCE((SELECT SUM(amount) FROM ledger l WHERE l.user_id = u._id AND kind = 'reward'), 0) AS rewards
         FROM users u`,
    )) {
      if (r.balance !== r.sum) problems.push(`user ${r._id}: balance ${tl(r.balance)}, ledger ${tl(r.sum)}`);
      if (r.balance < 0) problems.push(`user ${r._id}: negative balance ${tl(r.balance)}`);
      if (r.total_earned !== r.rewards)
        problems.push(`user ${r._id}: total earned ${tl(r.total_earned)}, reward rows ${tl(r.rewards)}`);
    }
    // 2. no submission paid twice, none paid that is not approved, every approved one paid once, its own reward to its own user
    for (const r of await all<{ ref: string; n: number }>(
      `SELECT ref, COUNT(*) AS n FROM ledger WHERE kind = 'reward' GROUP BY ref HAVING COUNT(*) <> 1`,
    ))
      problems.push(`submission ${r.ref} paid ${r.n} times`);
    for (const r of await all<{
      _id: string;
      status: string;
      n: number;
      paid: number;
      reward: number;
      wrong: number;
    }>(
      `SELECT s._id, s.status, s.reward, COUNT(l.id) AS n, COALESCE(SUM(l.amount), 0) AS paid,
              SUM(CASE WHEN l.user_id <> s.user_id THEN 1 ELSE 0 END) AS wrong
         FROM submissions s LEFT JOIN ledger l ON l.ref = s._id AND l.kind = 'reward'
        GROUP BY s._id`,
    )) {
      const expected = r.status === 'approved' ? 1 : 0;
      if (r.n !== expected || r.paid !== expected * r.reward || r.wrong > 0)
        problems.push(
          `${r.status} submission ${r._id}: ${r.n} reward row(s) of ${tl(r.paid)} (reward ${tl(r.reward)})`,
        );
    }
    for (const r of await all<{ ref: string }>(
      `SELECT l.ref FROM ledger l LEFT JOIN submissions s ON s._id = l.ref WHERE l.kind = 'reward' AND s._id IS NULL`,
    ))
      problems.push(`reward row for a missing submission ${r.ref}`);
    // a user is paid for a task once
    for (const r of await all<{ user_id: string; task_id: string; n: number }>(
      `SELECT user_id, task_id, COUNT(*) AS n FROM submissions WHERE status = 'approved'
        GROUP BY user_id, task_id HAVING COUNT(*) > 1`,
    ))
      problems.push(`user ${r.user_id} was approved ${r.n} times for task ${r.task_id}`);
    // a task's completion count is its approved submissions
    for (const r of await all<{ _id: string; total_completed: number; approved: number }>(
      `SELECT t._id, t.total_completed,
              (SELECT COUNT(*) FROM submissions s WHERE s.task_id = t._id AND s.status = 'approved') AS approved
         FROM tasks t WHERE t.total_completed <> (SELECT COUNT(*) FROM submissions s WHERE s.task_id = t._id AND s.status = 'approved')`,
    ))
      problems.push(
        `task ${r._id}: total completed ${r.total_completed}, approved submissions ${r.approved}`,
      );
    // 3. every withdrawal held once; refunded once if and only if rejected
    for (const r of await all<{
      _id: string;
      status: string;
      amount: number;
      holds: number;
      held: number;
      refunds: number;
      refunded: number;
    }>(
      `SELECT w._id, w.status, w.amount,
              SUM(CASE WHEN l.kind = 'withdrawal_hold' THEN 1 ELSE 0 END) AS holds,
              COALESCE(SUM(CASE WHEN l.kind = 'withdrawal_hold' THEN l.amount END), 0) AS held,
              SUM(CASE WHEN l.kind = 'withdrawal_refund' THEN 1 ELSE 0 END) AS refunds,
              COALESCE(SUM(CASE WHEN l.kind = 'withdrawal_refund' THEN l.amount END), 0) AS refunded
         FROM withdrawals w LEFT JOIN ledger l ON l.ref = w._id AND l.user_id = w.user_id
        GROUP BY w._id`,
    )) {
      const refunds = r.status === 'rejected' ? 1 : 0;
      if (r.holds !== 1 || r.held !== -r.amount)
        problems.push(
          `${r.status} withdrawal ${r._id}: ${r.holds} hold(s) of ${tl(r.held)} for ${tl(r.amount)}`,
        );
      if (r.refunds !== refunds || r.refunded !== refunds * r.amount)
        problems.push(`${r.status} withdrawal ${r._id}: ${r.refunds} refund(s) of ${tl(r.refunded)}`);
    }
    for (const r of await all<{ id: number; kind: string }>(
      `SELECT l.id, l.kind FROM ledger l LEFT JOIN withdrawals w ON w._id = l.ref AND w.user_id = l.user_id
        WHERE l.kind IN ('withdrawal_hold', 'withdrawal_refund') AND w._id IS NULL`,
    ))
      problems.push(`${r.kind} row ${r.id} points at no withdrawal`);
    // money out of reach: the holds of pending and approved withdrawals are their amounts
    const outstanding = await one<{ amount: number; held: number }>(
      `SELECT COALESCE(SUM(w.amount), 0) AS amount,
              COALESCE(-(SELECT SUM(l.amount) FROM ledger l JOIN withdrawals w2 ON w2._id = l.ref
                          WHERE l.kind = 'withdrawal_hold' AND w2.status IN ('pending', 'approved')), 0) AS held
         FROM withdrawals w WHERE w.status IN ('pending', 'approved')`,
    );
    if (outstanding.amount !== outstanding.held)
      problems.push(
        `pending + approved withdrawals ${tl(outstanding.amount)}, their holds ${tl(outstanding.held)}`,
      );
    // 4. adjustments: written by an admin of the run, no more than the acknowledged balance edits
    for (const r of await all<{ id: number; actor_id: string | null; amount: number }>(
      `SELECT id, actor_id, amount FROM ledger WHERE kind = 'adjustment'`,
    )) {
      if (!r.actor_id || !adminIds.has(r.actor_id))
        problems.push(`adjustment ${r.id} by ${r.actor_id}, not an admin`);
      if (r.amount === 0) problems.push(`adjustment ${r.id} of zero`);
    }
    for (const r of await all<{ user_id: string; n: number }>(
      `SELECT user_id, COUNT(*) AS n FROM ledger WHERE kind = 'adjustment' GROUP BY user_id`,
    )) {
      const acked = model.balanceEditsByUser.get(r.user_id) ?? 0;
      if (r.n > acked)
        problems.push(`user ${r.user_id}: ${r.n} adjustment rows, ${acked} acknowledged balance edits`);
    }

    // 5. the database against the clients' model
    const rewardRows = await all<{ ref: string; amount: number; user_id: string }>(
      `SELECT ref, amount, user_id FROM ledger WHERE kind = 'reward'`,
    );
    const seen = new Set<string>();
    for (const r of rewardRows) {
      seen.add(r.ref);
      const m = model.rewards.get(r.ref);
      if (!m) problems.push(`reward for submission ${r.ref} that no client saw approved`);
      else if (m.kurus !== r.amount || m.userId !== r.user_id)
        problems.push(
          `reward for ${r.ref}: ${tl(r.amount)} to ${r.user_id}, the client saw ${tl(m.kurus)} to ${m.userId}`,
        );
    }
    for (const id of model.rewards.keys())
      if (!seen.has(id)) problems.push(`approved submission ${id} never paid`);
    for (const id of model.rejectedSubmissions) {
      const s = await one<{ status: string } | undefined>(`SELECT status FROM submissions WHERE _id = ?`, id);
      if (s?.status !== 'rejected') problems.push(`submission ${id} acknowledged rejected is ${s?.status}`);
    }
    const withdrawals = await all<{ _id: string; user_id: string; amount: number; status: string }>(
      `SELECT _id, user_id, amount, status FROM withdrawals`,
    );
    const wSeen = new Set<string>();
    for (const w of withdrawals) {
      wSeen.add(w._id);
      const m = model.withdrawals.get(w._id);
      if (!m) problems.push(`withdrawal ${w._id} that no client got a 201 for`);
      else if (m.kurus !== w.amount || m.userId !== w.user_id)
        problems.push(
          `withdrawal ${w._id}: ${tl(w.amount)} of ${w.user_id}, the client saw ${tl(m.kurus)} of ${m.userId}`,
        );
      const expected = model.approvedWithdrawals.has(w._id)
        ? 'approved'
        : model.rejectedWithdrawals.has(w._id)
          ? 'rejected'
          : 'pending';
      if (w.status !== expected)
        problems.push(`withdrawal ${w._id} is ${w.status}, the admins saw ${expected}`);
    }
    for (const id of model.withdrawals.keys())
      if (!wSeen.has(id)) problems.push(`acknowledged withdrawal ${id} missing`);
    // per user, every ledger row but the admin's adjustments is a move some client saw acknowledged
    const expectedByUser = new Map<string, number>();
    const add = (u: string, k: number) => expectedByUser.set(u, (expectedByUser.get(u) ?? 0) + k);
    for (const r of model.rewards.values()) add(r.userId, r.kurus);
    for (const [id, w] of model.withdrawals) {
      add(w.userId, -w.kurus);
      if (model.rejectedWithdrawals.has(id)) add(w.userId, w.kurus);
    }
    for (const r of await all<{ user_id: string; sum: number }>(
      `SELECT user_id, SUM(amount) AS sum FROM ledger WHERE kind <> 'adjustment' GROUP BY user_id`,
    )) {
      const e = expectedByUser.get(r.user_id) ?? 0;
      if (e !== r.sum)
        problems.push(`user ${r.user_id}: ledger without adjustments ${tl(r.sum)}, the clients saw ${tl(e)}`);
      expectedByUser.delete(r.user_id);
    }
    for (const [u, e] of expectedByUser)
      if (e !== 0) problems.push(`user ${u}: no ledger rows, the clients saw ${tl(e)}`);

    const sumKind = (kind: string) =>
      one<{ s: number; n: number }>(
        `SELECT COALESCE(SUM(amount), 0) AS s, COUNT(*) AS n FROM ledger WHERE kind = ?`,
        kind,
      );
    const rewards = await sumKind('reward');
    const holds = await sumKind('withdrawal_hold');
    const refunds = await sumKind('withdrawal_refund');
    const adjustments = await sumKind('adjustment');
    const balances = await one<{ s: number; n: number }>(
      `SELECT COALESCE(SUM(balance), 0) AS s, COUNT(*) AS n FROM users`,
    );
    if (balances.s !== rewards.s + holds.s + refunds.s + adjustments.s)
      problems.push(
        `balances ${tl(balances.s)} <> rewards ${tl(rewards.s)} + holds ${tl(holds.s)} + refunds ${tl(refunds.s)} + adjustments ${tl(adjustments.s)}`,
      );
    const byStatus = async (table: string) =>
      Object.fromEntries(
        (
          await all<{ status: string; n: number }>(
            `SELECT status, COUNT(*) AS n FROM ${table} GROUP BY status`,
          )
        ).map((r) => [r.status, r.n]),
      );
    return {
      problems,
      totals: {
        users: balances.n,
        balances: balances.s,
        rewards: rewards.s,
        rewardRows: rewards.n,
        holds: -holds.s,
        holdRows: holds.n,
        refunds: refunds.s,
        refundRows: refunds.n,
        adjustments: adjustments.s,
        adjustmentRows: adjustments.n,
        submissions: await byStatus('submissions'),
        withdrawals: await byStatus('withdrawals'),
      },
    };
  } finally {
    await db.close();
  }
}
