import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createTask, taskRow } from './task-test-helpers';

let t: TestApp;
let server: ServerType;
let base: string;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  server = serve({ fetch: createApp(t.deps).fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.dispose();
});

/** Builds every request first, then releases them together. */
async function releaseTogether(requests: Request[]) {
  const replies = await Promise.all(requests.map((r) => fetch(r)));
  return Promise.all(replies.map(async (r) => ({ status: r.status, body: await r.json() })));
}

const startRequest = (taskId: string, token: string) =>
  new Request(`${base}/api/tasks/${taskId}/start`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });

describe('starting a task at the same instant over real HTTP', () => {
  it('gives 100 simultaneous users exactly 30 slots and each of the 10 comments once', async () => {
    const comments = Array.from({ length: 10 }, (_, i) => `Yorum ${i + 1}`);
    const taskId = await createTask(t, adminToken, { maxCompletions: 30, automaticComments: comments });
    const users = await Promise.all(Array.from({ length: 100 }, () => makeUser(t.deps.db)));
    const tokens = await Promise.all(users.map((u) => t.tokenFor(u)));

    const replies = await releaseTogether(tokens.map((token) => startRequest(taskId, token)));

    const won = replies.filter((r) => r.status === 201);
    const lost = replies.filter((r) => r.status !== 201);
    expect(won).toHaveLength(30);
    expect(lost.every((r) => r.status === 409 && r.body.error.code === 'task_full')).toBe(true);

    // the database, not just the replies
    const records = await t.deps.db
      .selectFrom('user_tasks')
      .selectAll()
      .where('task_id', '=', taskId)
      .execute();
    expect(records).toHaveLength(30);
    expect(new Set(records.map((r) => r.user_id)).size).toBe(30);
    const given = records.map((r) => r.automatic_comment).filter((c): c is string => c !== null);
    expect(given).toHaveLength(10);
    expect([...new Set(given)].sort()).toEqual([...comments].sort());
    expect(records.filter((r) => r.automatic_comment === null)).toHaveLength(20);
    const pool = await t.deps.db
      .selectFrom('task_comments')
      .selectAll()
      .where('task_id', '=', taskId)
      .execute();
    expect(pool.every((c) => c.used_by !== null)).toBe(true);
    for (const c of pool) {
      expect(records.find((r) => r.user_id === c.used_by)?.automatic_comment).toBe(c.text);
    }
    const task = await taskRow(t, taskId);
    expect(task.reserved).toBe(30);
    // every reply told its user the comment the database holds for them
    const winners = new Set(won.map((r) => r.body.data._id));
    expect(records.every((r) => winners.has(r._id))).toBe(true);
  });

  it('lets one user who fires ten starts at once in only once', async () => {
    const taskId = await createTask(t, adminToken, { automaticComments: ['a', 'b', 'c'] });
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const replies = await releaseTogether(Array.from({ length: 10 }, () => startRequest(taskId, token)));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(replies.filter((r) => r.body.error?.code === 'task_already_started')).toHaveLength(9);
    const records = await t.deps.db
      .selectFrom('user_tasks')
      .selectAll()
      .where('task_id', '=', taskId)
      .execute();
    expect(records).toHaveLength(1);
    const used = await t.deps.db
      .selectFrom('task_comments')
      .selectAll()
      .where('used_by', 'is not', null)
      .where('task_id', '=', taskId)
      .execute();
    expect(used).toHaveLength(1);
    expect((await taskRow(t, taskId)).reserved).toBe(1);
  });
});
