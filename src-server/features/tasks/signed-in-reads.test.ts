// The signed-in reads remembered under the change stamp (db/change-stamp.ts): a write of any kind,
// from this app or from another connection to the same file (a second process), is seen by the
// very next request, with the remembered reads warm when the write lands.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeStamp } from '../../db/change-stamp';
import { makeUser } from '../../testing/factories';
import { type ApiBody, createAdminTestApp, type TestApp, testsOnPostgres } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { createTask } from './task-test-helpers';

const ids = (body: ApiBody) => (body.data.items as { _id: string }[]).map((i) => i._id).sort();

describe('signed-in reads after writes, with the remembered reads warm', () => {
  let t: TestApp;
  let adminToken: string;
  let user: UserRow;
  let token: string;
  let taskA: string;
  let taskB: string;

  beforeEach(async () => {
    ({ t, adminToken } = await createAdminTestApp());
    user = await makeUser(t.deps.db, { name: 'Worker' });
    token = await t.tokenFor(user);
    taskA = await createTask(t, adminToken, { title: 'A' });
    taskB = await createTask(t, adminToken, { title: 'B' });
  });
  afterEach(() => t.dispose());

  /** Reads the list and a detail twice, so both come from what was remembered. */
  async function warm() {
    for (let i = 0; i < 2; i++) {
      expect((await t.call('GET', '/api/tasks', { token })).status).toBe(200);
      expect((await t.call('GET', `/api/tasks/${taskA}`, { token })).status).toBe(200);
      expect((await t.call('GET', '/api/tasks/user', { token })).status).toBe(200);
    }
  }

  it('shows a started task as started in the detail, and hides a task once its proof waits', async () => {
    await warm();
    expect((await t.call('POST', `/api/tasks/${taskA}/start`, { token })).status).toBe(201);
    const detail = await t.call('GET', `/api/tasks/${taskA}`, { token });
    expect(detail.body.data.userTask?.status).toBe('in_progress');
    await warm();
    // a proof waiting for review hides the task from the user's list at once
    await t.deps.db
      .insertInto('submissions')
      .values({
        _id: 'sub-race-1',
        user_id: user._id,
        task_id: taskA,
        user_task_id: (
          await t.deps.db
            .selectFrom('user_tasks')
            .select('_id')
            .where('user_id', '=', user._id)
            .where('task_id', '=', taskA)
            .executeTakeFirstOrThrow()
        )._id,
        description: '',
        reward: 100,
        status: 'pending',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as never)
      .execute();
    expect(ids((await t.call('GET', '/api/tasks', { token })).body)).toEqual([taskB]);
  });

  it("refuses a banned account on the next request, and ends an admin's powers with the role", async () => {
    await warm();
    const ban = await t.call('PUT', `/api/admin/users/${user._id}`, {
      token: adminToken,
      body: { name: user.name, email: user.email, role: 'user', status: 'banned', banReason: 'spam' },
    });
    expect([ban.status, ban.body.error]).toEqual([200, undefined]);
    expect((await t.call('GET', '/api/tasks/user', { token })).status).toBe(403);
    const second = await makeUser(t.deps.db, { role: 'admin', name: 'Second' });
    const secondToken = await t.tokenFor(second);
    for (let i = 0; i < 2; i++)
      expect(
        (await t.call('GET', `/api/tasks/${taskA}`, { token: secondToken })).body.data.automaticComments,
      ).toBeDefined();
    const demote = await t.call('PUT', `/api/admin/users/${second._id}`, {
      token: adminToken,
      body: { name: second.name, email: second.email, role: 'user', status: 'active' },
    });
    expect([demote.status, demote.body.error]).toEqual([200, undefined]);
    expect((await t.call('GET', '/api/admin/users', { token: secondToken })).status).toBe(403);
    expect(
      (await t.call('GET', `/api/tasks/${taskA}`, { token: secondToken })).body.data.automaticComments,
    ).toBeUndefined();
  });

  it.skipIf(testsOnPostgres)(
    "keeps the remembered reads through a second's heartbeats, and never through a real write",
    async () => {
      const lastActive = async (id: string) =>
        (
          await t.deps.db
            .selectFrom('users')
            .select('last_active')
            .where('_id', '=', id)
            .executeTakeFirstOrThrow()
        ).last_active;
      await t.deps.activity.flush();
      const before = await changeStamp(t.deps.db);
      // a worker's first request queues their heartbeat; written, it leaves the stamp as it was
      expect((await t.call('GET', '/api/tasks', { token })).status).toBe(200);
      await t.deps.activity.flush();
      expect(await lastActive(user._id)).not.toBeNull();
      expect(await changeStamp(t.deps.db)).toBe(before);
      // a real write moves it (a task, a new worker and their session), and a later heartbeat
      // does not bring back a value seen before
      const taskC = await createTask(t, adminToken, { title: 'C' });
      const other = await makeUser(t.deps.db, { name: 'Other' });
      const otherToken = await t.tokenFor(other);
      await t.deps.activity.flush();
      const afterWrite = await changeStamp(t.deps.db);
      expect(afterWrite).not.toBe(before);
      expect((await t.call('GET', '/api/tasks', { token: otherToken })).status).toBe(200);
      await t.deps.activity.flush();
      expect(await lastActive(other._id)).not.toBeNull();
      const afterBeat = await changeStamp(t.deps.db);
      expect(afterBeat).toBe(afterWrite);
      await t.deps.db.updateTable('tasks').set({ title: 'C2' }).where('_id', '=', taskC).execute();
      expect([before, afterWrite]).not.toContain(await changeStamp(t.deps.db));
      // and the worker's list, remembered through the heartbeats, follows the real writes
      expect(ids((await t.call('GET', '/api/tasks', { token })).body)).toEqual([taskA, taskB, taskC].sort());
    },
  );

  it.skipIf(testsOnPostgres)(
    'sees a write another process commits to the file (a ban, a hidden task)',
    async () => {
      await warm();
      const other = new Database(join(t.dataDir, 'taskreward.db'));
      try {
        other.prepare("UPDATE tasks SET status = 'inactive' WHERE _id = ?").run(taskB);
        expect(ids((await t.call('GET', '/api/tasks', { token })).body)).toEqual([taskA]);
        await warm();
        other.prepare("UPDATE users SET status = 'banned', ban_reason = 'x' WHERE _id = ?").run(user._id);
        expect((await t.call('GET', '/api/tasks/user', { token })).status).toBe(403);
        other.prepare("UPDATE users SET status = 'active', ban_reason = NULL WHERE _id = ?").run(user._id);
        other.prepare('DELETE FROM sessions WHERE user_id = ?').run(user._id);
        expect((await t.call('GET', '/api/tasks/user', { token })).status).toBe(401);
      } finally {
        other.close();
      }
    },
  );

  it.skipIf(!testsOnPostgres)(
    'sees a write another connection commits to the database (a started task, a new title, a hidden task, a ban)',
    async () => {
      await warm();
      const other = new pg.Client({ connectionString: t.deps.config.databaseUrl as string });
      await other.connect();
      try {
        // a write left open is no reason to read again, and is not seen
        await other.query('BEGIN');
        await other.query("UPDATE tasks SET title = 'Open' WHERE _id = $1", [taskA]);
        expect((await t.call('GET', `/api/tasks/${taskA}`, { token })).body.data.title).toBe('A');
        await other.query('COMMIT');
        expect((await t.call('GET', `/api/tasks/${taskA}`, { token })).body.data.title).toBe('Open');
        await warm();
        await other.query(
          `INSERT INTO user_tasks (_id, user_id, task_id, status, started_at, expires_at)
           VALUES ('ut-other', $1, $2, 'in_progress', $3, $4)`,
          [user._id, taskA, new Date().toISOString(), new Date(Date.now() + 3_600_000).toISOString()],
        );
        const detail = await t.call('GET', `/api/tasks/${taskA}`, { token });
        expect(detail.body.data.userTask?.status).toBe('in_progress');
        await warm();
        // a task hidden by another node leaves the page whose live columns were remembered
        await other.query("UPDATE tasks SET status = 'inactive' WHERE _id = $1", [taskB]);
        expect(ids((await t.call('GET', '/api/tasks', { token })).body)).toEqual([taskA]);
        await warm();
        await other.query("UPDATE users SET status = 'banned', ban_reason = 'x' WHERE _id = $1", [user._id]);
        expect((await t.call('GET', '/api/tasks/user', { token })).status).toBe(403);
      } finally {
        await other.end();
      }
    },
  );
});
