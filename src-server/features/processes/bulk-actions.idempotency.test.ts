// One Idempotency-Key on the bulk reviews: the key is claimed before any item runs, so two
// requests sent at once with the key and different bodies (one approving x, one rejecting y) decide
// one body only, the other gets 422 idempotency_key_reused, never the first's reply as a replay.
// On PostgreSQL the two requests go to two app nodes sharing the database, where the hole was; on
// SQLite the one node has been seen to run the two one after the other, and the rule holds there too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { openApp } from '../../bootstrap';
import { runDoctor } from '../../cli/doctor';
import { readConfig } from '../../config';
import { isPostgres } from '../../db/dialect';
import { DataFolder } from '../../storage/data-folder';
import { sharedDatabase } from '../../testing/cluster';
import { makeUser } from '../../testing/factories';
import { burst, fund, listen, makePendingSubmission, makeWithdrawal } from '../../testing/money-factories';
import { sessionToken } from '../../testing/test-app';
import { CLAIM_LEASE_MS } from '../money/idempotency';

let dir: string;
let database: Awaited<ReturnType<typeof sharedDatabase>>;
let nodes: Awaited<ReturnType<typeof openApp>>[];
let servers: Awaited<ReturnType<typeof listen>>[];
let token: string;
let offsetMs = 0;
const ROUNDS = 10;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-bulk-key-'));
  database = await sharedDatabase();
  const config = readConfig({ DATA_DIR: dir, ...database.env });
  const clock = () => new Date(Date.now() + offsetMs);
  const first = await openApp(config, { web: new Map(), clock });
  // SQLite is one node per file: the second "node" is the same app
  nodes = isPostgres(first.deps.db) ? [first, await openApp(config, { web: new Map(), clock })] : [first];
  // real HTTP servers: the two requests are read and run side by side, as a load balancer sends them
  servers = await Promise.all(nodes.map((n) => listen(createApp(n.deps))));
  const admin = await makeUser(first.deps.db, { role: 'admin' });
  token = await sessionToken(first.deps, admin);
});
afterAll(async () => {
  expect(await runDoctor(new DataFolder(dir), { databaseUrl: database.env.DATABASE_URL ?? null })).toEqual(
    [],
  );
  for (const server of servers) await server.close();
  for (const node of nodes) await node.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

const db = () => nodes[0].deps.db;
async function put(node: number, path: string, body: unknown, key: string) {
  const res = await fetch(`${servers[node % servers.length].url}${path}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), replayed: res.headers.get('Idempotent-Replayed') };
}
const statusOf = async (table: 'withdrawals' | 'submissions', id: string) =>
  (await db().selectFrom(table).select('status').where('_id', '=', id).executeTakeFirstOrThrow()).status;
async function pendingWithdrawal() {
  const user = await makeUser(db());
  await fund(db(), user._id, 8_000);
  return makeWithdrawal(db(), user._id, { amount: 5_000 });
}

describe('one Idempotency-Key, two bulk withdrawal reviews with different bodies at once', () => {
  it('decides one body only and refuses the other with 422 idempotency_key_reused, round after round', async () => {
    let approvedFirst = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // a few items each, so each run takes a while
      const x = await Promise.all(Array.from({ length: 6 }, () => pendingWithdrawal()));
      const y = await Promise.all(Array.from({ length: 6 }, () => pendingWithdrawal()));
      const approveBody = { ids: x, status: 'approved' };
      const rejectBody = { ids: y, status: 'rejected', reason: 'Eksik bilgi' };
      const key = `bulk-race-${round}-${Date.now()}`;
      const [approve, reject] = await burst(2, (i) =>
        put(i, '/api/admin/withdraws/review', i === 0 ? approveBody : rejectBody, key),
      );
      const [won, lost] = approve.status === 200 ? [approve, reject] : [reject, approve];
      expect(won.status).toBe(200);
      expect(won.replayed).toBeNull();
      expect(lost.status).toBe(422);
      expect(lost.body.error.code).toBe('idempotency_key_reused');
      const states = async (ids: string[]) => [
        ...new Set(await Promise.all(ids.map((id) => statusOf('withdrawals', id)))),
      ];
      if (won === approve) {
        approvedFirst++;
        expect([await states(x), await states(y)]).toEqual([['approved'], ['pending']]);
      } else expect([await states(x), await states(y)]).toEqual([['pending'], ['rejected']]);
      // the same key with the winner's body again is its replay; with the loser's, still refused
      const again = await put(
        1,
        '/api/admin/withdraws/review',
        won === approve ? approveBody : rejectBody,
        key,
      );
      expect([again.status, again.replayed, again.body]).toEqual([200, 'true', won.body]);
    }
    console.log(`bulk key race: the approval claimed the key first in ${approvedFirst} of ${ROUNDS} rounds`);
  });

  it('runs a body sent twice at once once: the other gets its reply or 409 idempotency_conflict', async () => {
    for (let round = 0; round < 6; round++) {
      const user = await makeUser(db());
      const proofs = await Promise.all([0, 1, 2].map(() => makePendingSubmission(db(), user._id)));
      const body = { ids: proofs.map((p) => p.submissionId), status: 'approved', feedback: 'Tamam' };
      const key = `bulk-same-${round}-${Date.now()}`;
      const replies = await burst(2, (i) => put(i, '/api/admin/submissions/review', body, key));
      const fresh = replies.filter((r) => r.status === 200 && r.replayed === null);
      expect(fresh).toHaveLength(1);
      expect(fresh[0].body.data.counts).toEqual({ approved: 3 });
      for (const r of replies.filter((x) => x !== fresh[0])) {
        if (r.status === 200) expect([r.replayed, r.body]).toEqual(['true', fresh[0].body]);
        else expect([r.status, r.body.error.code]).toEqual([409, 'idempotency_conflict']);
      }
      const rewards = await db()
        .selectFrom('ledger')
        .select('ref')
        .where('user_id', '=', user._id)
        .where('kind', '=', 'reward')
        .execute();
      expect(rewards).toHaveLength(3);
    }
  });
});

describe('the claim of a bulk review', () => {
  it('is not taken by a request refused before it runs: the corrected request may use the key', async () => {
    const x = await pendingWithdrawal();
    const key = `bulk-fail-${Date.now()}`;
    const prior = await put(
      0,
      '/api/admin/withdraws/review',
      { ids: [x], status: 'rejected', reason: 42 },
      key,
    );
    expect(prior.status).toBe(422);
    const rows = await db().selectFrom('idempotency').selectAll().where('key', '=', key).execute();
    expect(rows).toEqual([]);
    const ok = await put(0, '/api/admin/withdraws/review', { ids: [x], status: 'approved' }, key);
    expect(ok.status).toBe(200);
  });

  it('left by a run that died is taken over after the lease by the same request, not by another', async () => {
    const x = await pendingWithdrawal();
    const key = `bulk-dead-${Date.now()}`;
    const body = { ids: [x], status: 'approved' };
    const admin = await db()
      .selectFrom('users')
      .select('_id')
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    // the claim a killed node left: a placeholder whose route is this request's
    const first = await put(0, '/api/admin/withdraws/review', body, key);
    const stored = await db()
      .selectFrom('idempotency')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('idempotency')
      .set({ status: 0, body: '' })
      .where('user_id', '=', admin._id)
      .where('key', '=', key)
      .execute();
    const busy = await put(1, '/api/admin/withdraws/review', body, key);
    expect([busy.status, busy.body.error.code]).toEqual([409, 'idempotency_conflict']);
    offsetMs = CLAIM_LEASE_MS + 1000;
    try {
      const other = await put(
        1,
        '/api/admin/withdraws/review',
        { ids: [x], status: 'rejected', reason: 'x' },
        key,
      );
      expect([other.status, other.body.error.code]).toEqual([422, 'idempotency_key_reused']);
      const taken = await put(1, '/api/admin/withdraws/review', body, key);
      expect(taken.status).toBe(200);
      // each item is decided once whatever runs it: the second run finds it decided
      expect(taken.body.data.counts).toEqual({ already_reviewed: 1 });
      expect(first.body.data.counts).toEqual({ approved: 1 });
      expect(stored.status).toBe(200);
    } finally {
      offsetMs = 0;
    }
  });
});
