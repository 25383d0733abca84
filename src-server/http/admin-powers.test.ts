import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../cli/doctor';
import type { Db } from '../db/database';
import { nowIso } from '../db/ids';
import { flagSharedDevice } from '../features/fraud/signals';
import { multipart } from '../features/submissions/submission-test-helpers';
import { taskBody } from '../features/tasks/task-test-helpers';
import type { UserRow } from '../features/users/users.repository';
import { FILE_KINDS } from '../storage/file-store';
import { pngFile } from '../storage/image-fixtures';
import { sharedDatabase } from '../testing/cluster';
import { makeUser } from '../testing/factories';
import { fund, makePendingSubmission, makeTask, makeWithdrawal } from '../testing/money-factories';
import { createTestApp, type TestApp, testsOnPostgres } from '../testing/test-app';
import { ADMIN_GUARDS, requireTaskEditor } from './auth';

/**
 * A role or status change ends an account's admin powers on its next request, on every node:
 * for every admin-only write of the app (found by its guard in the route table, so a new one
 * fails here until it has a scenario below) an admin is demoted, suspended, banned or deleted on
 * node A, and their next request on node B is refused with the right code and writes nothing
 * (every table and every stored file compared). Each scenario first runs for an active admin to
 * show that the same request does write. Two nodes share one database: PostgreSQL on its run,
 * the SQLite file of one data folder otherwise.
 */

interface Call {
  method: string;
  path: string;
  body?: unknown;
  raw?: BodyInit;
  headers?: Record<string, string>;
}

interface Ctx {
  db: Db;
  /** the admin who will send the request */
  actor: UserRow;
  /** the other admin, on node A */
  asSuper(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

const worker = (db: Db) => makeUser(db, { name: 'Worker' });
const upload = (field: string): Omit<Call, 'method' | 'path'> => {
  const form = multipart([
    { name: field, filename: `${field}.png`, type: 'image/png', data: pngFile(20, 10) },
  ]);
  return { raw: form.body, headers: { 'Content-Type': form.contentType } };
};
async function pendingWithdrawal(db: Db): Promise<string> {
  const user = await worker(db);
  await fund(db, user._id, 10_000);
  return makeWithdrawal(db, user._id, { amount: 5_000 });
}
let settingsRound = 0;

/** Every admin-only write: a request that an active admin's token gets through with a write. */
const SCENARIOS: Record<string, (ctx: Ctx) => Promise<Call>> = {
  'POST /api/auth/send-notification': async () => ({
    method: 'POST',
    path: '/api/auth/send-notification',
    body: { notificationType: 'customMessage', target: 'all', title: 'Duyuru', message: 'Yeni görevler var' },
  }),
  'PUT /api/settings': async () => ({
    method: 'PUT',
    path: '/api/settings',
    body: { site: { name: `Site ${++settingsRound}` } },
  }),
  'PUT /api/settings/logo': async () => ({ method: 'PUT', path: '/api/settings/logo', ...upload('logo') }),
  'PUT /api/settings/legal/:document': async () => ({
    method: 'PUT',
    path: '/api/settings/legal/terms',
    body: { tr: `Kullanım koşulları ${++settingsRound}` },
  }),
  'PUT /api/settings/favicon': async () => ({
    method: 'PUT',
    path: '/api/settings/favicon',
    ...upload('favicon'),
  }),
  'PUT /api/submissions/:id/review': async ({ db }) => {
    const { submissionId } = await makePendingSubmission(db, (await worker(db))._id);
    return {
      method: 'PUT',
      path: `/api/submissions/${submissionId}/review`,
      body: { status: 'approved', feedback: 'ok' },
    };
  },
  'POST /api/tasks': async () => ({ method: 'POST', path: '/api/tasks', body: taskBody() }),
  // the task's creator: their own task gives them nothing once they are no longer an active admin
  'PUT /api/tasks/:id': async ({ db, actor }) => {
    const id = await makeTask(db, { created_by: actor._id, status: 'cancelled', reward: 500 });
    return {
      method: 'PUT',
      path: `/api/tasks/${id}`,
      body: { status: 'active', reward: 10000, maxCompletions: 1000000, requiredProof: 'none' },
    };
  },
  'DELETE /api/tasks/:id': async ({ db, actor }) => ({
    method: 'DELETE',
    path: `/api/tasks/${await makeTask(db, { created_by: actor._id })}`,
  }),
  'PUT /api/tasks/:id/feature': async ({ db, actor }) => ({
    method: 'PUT',
    path: `/api/tasks/${await makeTask(db, { created_by: actor._id })}/feature`,
    body: { isFeatured: true },
  }),
  'PUT /api/admin/submissions/review': async ({ db }) => {
    const { submissionId } = await makePendingSubmission(db, (await worker(db))._id);
    return {
      method: 'PUT',
      path: '/api/admin/submissions/review',
      body: { ids: [submissionId], status: 'approved', feedback: 'ok' },
    };
  },
  'PUT /api/admin/withdraws/review': async ({ db }) => ({
    method: 'PUT',
    path: '/api/admin/withdraws/review',
    body: { ids: [await pendingWithdrawal(db)], status: 'approved' },
  }),
  'PUT /api/admin/withdraws/:id/approve': async ({ db }) => ({
    method: 'PUT',
    path: `/api/admin/withdraws/${await pendingWithdrawal(db)}/approve`,
    body: {},
  }),
  'PUT /api/admin/withdraws/:id/reject': async ({ db }) => ({
    method: 'PUT',
    path: `/api/admin/withdraws/${await pendingWithdrawal(db)}/reject`,
    body: { reason: 'wrong name' },
  }),
  'PUT /api/admin/users/:id': async ({ db }) => {
    const user = await worker(db);
    return {
      method: 'PUT',
      path: `/api/admin/users/${user._id}`,
      body: { name: user.name, email: user.email, balance: 500 },
    };
  },
  'POST /api/admin/users/:id/notes': async ({ db }) => ({
    method: 'POST',
    path: `/api/admin/users/${(await worker(db))._id}/notes`,
    body: { body: 'Asked twice about a late payout' },
  }),
  'DELETE /api/admin/users/:id': async ({ db }) => ({
    method: 'DELETE',
    path: `/api/admin/users/${(await worker(db))._id}`,
  }),
  'DELETE /api/admin/users/:id/sessions': async ({ db }) => ({
    method: 'DELETE',
    path: `/api/admin/users/${(await worker(db))._id}/sessions`,
  }),
  'DELETE /api/admin/users/:id/sessions/:sessionId': async ({ db }) => {
    const user = await worker(db);
    const now = new Date().toISOString();
    await db
      .insertInto('sessions')
      .values({
        id: `s-${user._id}`,
        user_id: user._id,
        password_stamp: 'x',
        remember: 0,
        created_at: now,
        last_seen_at: now,
        expires_at: '9999-01-01T00:00:00.000Z',
        user_agent: null,
        ip: null,
      })
      .execute();
    return { method: 'DELETE', path: `/api/admin/users/${user._id}/sessions/s-${user._id}` };
  },
  'DELETE /api/admin/users/:id/two-factor': async ({ db }) => {
    const user = await worker(db);
    await db
      .insertInto('two_factor')
      .values({
        user_id: user._id,
        secret: 'sealed',
        enabled_at: new Date().toISOString(),
        last_step: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    return { method: 'DELETE', path: `/api/admin/users/${user._id}/two-factor` };
  },
  'PUT /api/admin/flags/:id/dismiss': async ({ db }) => {
    const device = `device-${Math.random()}`;
    await makeUser(db, { device_id: device });
    const flagged = await makeUser(db, { device_id: device });
    await flagSharedDevice(db, { userId: flagged._id, deviceId: device, at: nowIso() });
    const flag = await db
      .selectFrom('flags')
      .select('_id')
      .where('item_id', '=', flagged._id)
      .executeTakeFirstOrThrow();
    return { method: 'PUT', path: `/api/admin/flags/${flag._id}/dismiss`, body: { note: 'kardeşler' } };
  },
  'PUT /api/admin/submissions/:id/appeal': async ({ db, asSuper }) => {
    const user = await worker(db);
    const { submissionId } = await makePendingSubmission(db, user._id);
    const rejected = await asSuper('PUT', `/api/submissions/${submissionId}/review`, {
      status: 'rejected',
      feedback: 'Paylaşım yok',
      rejectionReason: 'no_share',
    });
    expect(rejected.status).toBe(200);
    const appeal = await nodes[1].call('POST', `/api/submissions/${submissionId}/appeal`, {
      token: await nodes[1].tokenFor(user),
      body: { message: 'Paylaşımı yaptım, lütfen bakın.' },
    });
    expect(appeal.status).toBe(201);
    return {
      method: 'PUT',
      path: `/api/admin/submissions/${submissionId}/appeal`,
      body: { decision: 'uphold', response: 'Paylaşım görünmüyor.' },
    };
  },
};

type Change = 'demoted' | 'suspended' | 'banned' | 'deleted';
const CHANGES: Change[] = ['demoted', 'suspended', 'banned', 'deleted'];
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let nodes: TestApp[];
let folder: string;
let drop: () => Promise<void>;
let superToken: string;
beforeAll(async () => {
  const database = await sharedDatabase();
  drop = database.drop;
  folder = mkdtempSync(join(tmpdir(), 'taskreward-powers-'));
  const env = { ...database.env, DATA_DIR: folder };
  nodes = [await createTestApp({ env }), await createTestApp({ env })];
  superToken = await nodes[0].tokenFor(await makeUser(nodes[0].deps.db, { role: 'admin', name: 'Super' }));
}, 60_000);
afterAll(async () => {
  for (const node of nodes) await node.dispose();
  await drop();
  rmSync(folder, { recursive: true, force: true });
});

type Route = TestApp['app']['routes'][number];

/** "METHOD /path" of every write under an admin guard, with the code a non-admin gets. */
function adminWrites(routes: Route[]): Map<string, string> {
  const guards = routes.filter((r) => ADMIN_GUARDS.has(r.handler));
  const covers = (guard: Route, path: string) =>
    guard.path === path || (guard.path.endsWith('/*') && path.startsWith(guard.path.slice(0, -1)));
  const out = new Map<string, string>();
  for (const r of routes) {
    if (!WRITES.has(r.method)) continue;
    const over = guards.filter((g) => (g.method === 'ALL' || g.method === r.method) && covers(g, r.path));
    if (over.length === 0) continue;
    out.set(
      `${r.method} ${r.path}`,
      over.some((g) => g.handler === requireTaskEditor) ? 'task_not_owner' : 'forbidden',
    );
  }
  return out;
}

/** Every row of every table (activity times left out: a refused request may still be activity) and every stored file. */
async function everything(): Promise<string[]> {
  const db = nodes[0].deps.db;
  const tables = (await db.introspection.getTables()).map((t) => t.name).sort();
  const out: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    const lines = rows.map((row) => {
      const { last_active: _activity, ...rest } = row;
      return `${table} ${JSON.stringify(rest)}`;
    });
    out.push(...lines.sort());
  }
  const store = nodes[0].deps.files;
  for (const kind of FILE_KINDS)
    for (const name of (await store.list(kind)).sort()) out.push(`file ${kind}/${name}`);
  return out;
}

const asSuper: Ctx['asSuper'] = async (method, path, body) => {
  const res = await nodes[0].call(method, path, { token: superToken, body });
  return { status: res.status, body: res.body };
};

async function change(actor: UserRow, how: Change): Promise<void> {
  const who = { name: actor.name, email: actor.email };
  const res =
    how === 'deleted'
      ? await asSuper('DELETE', `/api/admin/users/${actor._id}`)
      : await asSuper('PUT', `/api/admin/users/${actor._id}`, {
          ...who,
          ...(how === 'demoted' && { role: 'user' }),
          ...(how === 'suspended' && { status: 'suspended' }),
          ...(how === 'banned' && { status: 'banned', banReason: 'kural ihlali' }),
        });
  expect(res.status).toBe(200);
}

function send(node: TestApp, call: Call, token: string) {
  return node.call(call.method, call.path, {
    token,
    body: call.body,
    raw: call.raw,
    headers: call.headers,
  });
}

const found = () => adminWrites(nodes[0].app.routes);

describe(`admin powers end at the next request on every node (${testsOnPostgres ? 'PostgreSQL' : 'SQLite'}, two nodes)`, () => {
  it('has a scenario for every admin-only write of the app, and no other', () => {
    expect([...found().keys()].sort()).toEqual(Object.keys(SCENARIOS).sort());
  });

  describe.each(Object.keys(SCENARIOS).sort())('%s', (route) => {
    it('writes for an active admin', async () => {
      const actor = await makeUser(nodes[0].deps.db, { role: 'admin', name: 'Actor' });
      const call = await SCENARIOS[route]({ db: nodes[0].deps.db, actor, asSuper });
      const before = await everything();
      const res = await send(nodes[1], call, await nodes[1].tokenFor(actor));
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      expect(await everything()).not.toEqual(before);
    });

    it.each(CHANGES)('refuses an admin %s on the other node, writing nothing', async (how) => {
      const actor = await makeUser(nodes[0].deps.db, { role: 'admin', name: 'Actor' });
      const token = await nodes[1].tokenFor(actor);
      const call = await SCENARIOS[route]({ db: nodes[0].deps.db, actor, asSuper });
      await change(actor, how);
      const before = await everything();
      const res = await send(nodes[1], call, token);
      const expected = {
        demoted: [403, found().get(route)],
        suspended: [403, 'suspended'],
        banned: [403, 'banned'],
        deleted: [401, 'invalid_token'],
      }[how];
      expect([res.status, res.body?.error?.code]).toEqual(expected);
      expect(await everything()).toEqual(before);
    });
  });

  it('leaves a database the doctor finds clean', async () => {
    const node = nodes[0];
    expect(await runDoctor(node.folder, { databaseUrl: node.deps.config.databaseUrl })).toEqual([]);
  });
});
