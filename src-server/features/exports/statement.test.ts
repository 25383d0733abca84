// The worker's earnings statement: the ledger as its owner may see it, with the balance after
// each row. Its sums are the ledger's own (whole history, each month, each page) on either engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { burst, fund, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { credit } from '../money/ledger';
import type { UserRow } from '../users/users.repository';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
let worker: UserRow;
let token: string;

interface Row {
  id: number;
  at: string;
  kind: string;
  amount: number;
  balanceAfter: number;
  task: { _id: string; title: string } | null;
}
interface Statement {
  items: Row[];
  total: number;
  pages: number;
  totals: { credits: number; debits: number; net: number };
}

const statement = async (query = '', as = token) => {
  const res = await t.call('GET', `/api/users/me/statement${query}`, { token: as });
  expect(res.status).toBe(200);
  return res.body.data as Statement;
};
const ledgerSum = async (userId: string, from?: string, to?: string) => {
  let q = t.deps.db
    .selectFrom('ledger')
    .select((eb) => eb.fn.sum<number>('amount').as('sum'))
    .where('user_id', '=', userId);
  if (from && to) q = q.where('created_at', '>=', from).where('created_at', '<', to);
  return Number((await q.executeTakeFirstOrThrow()).sum ?? 0) / 100;
};
const review = (id: string, body: unknown) =>
  t.call('PUT', `/api/submissions/${id}/review`, { token: adminToken, body });

let clock = Date.parse('2026-10-10T12:00:00.000Z');
const at = (iso: string) => {
  clock = Date.parse(iso);
  return iso;
};

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(clock) });
  admin = await makeUser(t.deps.db, { role: 'admin' });
  adminToken = await t.tokenFor(admin);
  worker = await makeUser(t.deps.db);
  token = await t.tokenFor(worker);
  // a history over two months (Turkey's time): an adjustment and three rewards in October, a
  // payout paid and one refunded in November, and another user's money beside it
  const adjustment = at('2026-10-10T12:00:00.000Z');
  await t.deps.db.transaction().execute((tx) =>
    credit(tx, {
      userId: worker._id,
      amount: 2_000,
      kind: 'adjustment',
      ref: null,
      actorId: admin._id,
      at: adjustment,
    }),
  );
  for (const [i, reward] of [750, 1_250, 333].entries()) {
    const { submissionId } = await makePendingSubmission(t.deps.db, worker._id, { reward });
    at(`2026-10-1${i + 1}T12:00:00.000Z`);
    expect((await review(submissionId, { status: 'approved', feedback: 'ok' })).status).toBe(200);
  }
  // 22:30 UTC on 31 October is 1 November 01:30 in Turkey
  const paid = await makeWithdrawal(t.deps.db, worker._id, {
    amount: 2_500,
    created_at: at('2026-10-31T22:30:00.000Z'),
  });
  at('2026-11-02T12:00:00.000Z');
  expect((await t.call('PUT', `/api/admin/withdraws/${paid}/approve`, { token: adminToken })).status).toBe(
    200,
  );
  const refused = await makeWithdrawal(t.deps.db, worker._id, {
    amount: 1_000,
    created_at: at('2026-11-03T12:00:00.000Z'),
  });
  at('2026-11-04T12:00:00.000Z');
  const rejected = await t.call('PUT', `/api/admin/withdraws/${refused}/reject`, {
    token: adminToken,
    body: { reason: 'IBAN hatalı' },
  });
  expect(rejected.status).toBe(200);
  const other = await makeUser(t.deps.db);
  await fund(t.deps.db, other._id, 99_900, admin._id);
});
afterAll(() => t.dispose());

describe('GET /api/users/me/statement', () => {
  it('lists every movement newest first, the balance after each, summing to the ledger and the balance', async () => {
    const all = await statement('?limit=100');
    expect(all.total).toBe(7);
    expect(all.items.map((r) => r.kind)).toEqual([
      'withdrawal_refund',
      'withdrawal_hold',
      'withdrawal_hold',
      'reward',
      'reward',
      'reward',
      'adjustment',
    ]);
    const sum = all.items.reduce((s, r) => s + Math.round(r.amount * 100), 0) / 100;
    expect(sum).toBe(await ledgerSum(worker._id));
    expect(all.totals.net).toBe(sum);
    const user = await t.deps.db
      .selectFrom('users')
      .select('balance')
      .where('_id', '=', worker._id)
      .executeTakeFirstOrThrow();
    expect(all.items[0]!.balanceAfter).toBe(Number(user.balance) / 100);
    // each row's balance is the one before it plus its amount
    const oldestFirst = [...all.items].reverse();
    let running = 0;
    for (const r of oldestFirst) {
      running = Math.round(running * 100 + r.amount * 100) / 100;
      expect(r.balanceAfter).toBe(running);
    }
    expect(all.totals).toEqual({ credits: 20 + 7.5 + 12.5 + 3.33 + 10, debits: -35, net: sum });
    // a reward names its task; a payout none
    expect(all.items.find((r) => r.kind === 'reward')?.task?._id).toMatch(/^[0-9a-f]{24}$/);
    expect(all.items[0]!.task).toBeNull();
  });

  it('pages without losing or repeating a row, the running balance kept across pages', async () => {
    const all = await statement('?limit=100');
    const pages: Row[] = [];
    const first = await statement('?limit=3');
    expect(first.pages).toBe(3);
    for (let p = 1; p <= first.pages; p++) pages.push(...(await statement(`?limit=3&page=${p}`)).items);
    expect(pages).toEqual(all.items);
  });

  it('filters by month in Turkey’s time, the months adding up to the whole, balances still over all history', async () => {
    const oct = await statement('?month=2026-10');
    const nov = await statement('?month=2026-11');
    expect([oct.total, nov.total]).toEqual([4, 3]);
    expect(oct.totals.net).toBe(
      await ledgerSum(worker._id, '2026-09-30T21:00:00.000Z', '2026-10-31T21:00:00.000Z'),
    );
    expect(nov.totals.net).toBe(
      await ledgerSum(worker._id, '2026-10-31T21:00:00.000Z', '2026-11-30T21:00:00.000Z'),
    );
    expect(Math.round((oct.totals.net + nov.totals.net) * 100) / 100).toBe(await ledgerSum(worker._id));
    // November's oldest row starts from October's closing balance
    const novOldest = nov.items.at(-1)!;
    expect(Math.round((novOldest.balanceAfter - novOldest.amount) * 100) / 100).toBe(
      oct.items[0]!.balanceAfter,
    );
    expect((await statement('?month=2026-09')).items).toEqual([]);
  });

  it('downloads the statement as Excel-Turkish CSV (BOM, semicolons, decimal commas) or plain CSV', async () => {
    const res = await t.app.request('/api/users/me/statement.csv?month=2026-11', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('taskreward-statement-2026-11.csv');
    // read as bytes: a Response's text() drops the byte-order mark Excel needs
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith('\uFEFFTarih;Hareket;Görev;Tutar (TL);Bakiye (TL)\r\n')).toBe(true);
    const lines = text.trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(3);
    // the first November row is 1 November 01:30 in Turkey
    expect(lines[0]).toMatch(/^01\.11\.2026 01:30:00;Para çekme;;-25,00;/);
    const last = (await statement('?limit=1')).items[0]!;
    expect(lines.at(-1)!.split(';').at(-1)).toBe(last.balanceAfter.toFixed(2).replace('.', ','));
    const plain = await t.app.request('/api/users/me/statement.csv?format=rfc4180&lang=en', {
      headers: { Authorization: `Bearer ${token}` },
    });
    const plainText = await plain.text();
    expect(plainText.startsWith('Date,Movement,Task,Amount (TL),Balance (TL)\r\n')).toBe(true);
    expect(plainText.trim().split('\r\n')).toHaveLength(8);
  });

  it('is its owner’s alone: no one else’s rows, no id to ask for, 401 without a token, 403 when banned', async () => {
    const stranger = await makeUser(t.deps.db);
    const strangerToken = await t.tokenFor(stranger);
    // query words it does not take are ignored: it is always the reader's own ledger
    const theirs = await statement(`?user=${worker._id}&userId=${worker._id}`, strangerToken);
    expect(theirs.items).toEqual([]);
    expect((await t.call('GET', '/api/users/me/statement')).status).toBe(401);
    expect((await t.call('GET', '/api/users/me/statement.csv')).status).toBe(401);
    const suspended = await makeUser(t.deps.db, { status: 'suspended' });
    expect(
      (await t.call('GET', '/api/users/me/statement', { token: await t.tokenFor(suspended) })).status,
    ).toBe(200);
    const banned = await makeUser(t.deps.db, { status: 'banned', ban_reason: 'spam' });
    expect((await t.call('GET', '/api/users/me/statement', { token: await t.tokenFor(banned) })).status).toBe(
      403,
    );
  });

  it.each([
    ['?month=2026-13', 'month'],
    ['?month=november', 'month'],
    ['?limit=101', 'limit'],
    ['?page=0', 'page'],
  ])('refuses %s with a 422 naming the field', async (query, field) => {
    const res = await t.call('GET', `/api/users/me/statement${query}`, { token });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.error)).toContain(field);
    const csv = await t.call(
      'GET',
      `/api/users/me/statement.csv${query.startsWith('?limit') || query.startsWith('?page') ? '?format=xls' : query}`,
      {
        token,
      },
    );
    expect(csv.status).toBe(422);
  });

  it('stays consistent while money moves, and answers a flood of reads without a 5xx', async () => {
    const replies = await burst(30, async (i) => {
      if (i % 5 === 0) {
        const { submissionId } = await makePendingSubmission(t.deps.db, worker._id, { reward: 100 });
        await review(submissionId, { status: 'approved', feedback: 'ok' });
        return null;
      }
      return t.call('GET', '/api/users/me/statement?limit=100', { token });
    });
    for (const reply of replies) {
      if (!reply) continue;
      expect([200, 429]).toContain(reply.status);
      if (reply.status !== 200) continue;
      // every answer is one snapshot: its rows add up to its newest balance
      const rows = (reply.body.data as Statement).items;
      const sum = rows.reduce((s, r) => s + Math.round(r.amount * 100), 0) / 100;
      expect(rows[0]!.balanceAfter).toBe(sum);
    }
    expect((await statement('?limit=100')).items[0]!.balanceAfter).toBe(await ledgerSum(worker._id));
  });
});
