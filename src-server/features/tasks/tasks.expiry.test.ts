// The time limit of a started task. Records expire, their slot and comment go back to
// the task exactly once (also under races), a late proof is refused, and an expired record can
// be started again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { submit } from '../submissions/submission-test-helpers';
import type { UserRow } from '../users/users.repository';
import { checkTaskRecords } from './task-doctor';
import { expireDue, SWEEP_GRACE_MS } from './task-expiry';
import { createTask, settleLatest, taskRow } from './task-test-helpers';

let t: TestApp;
let adminToken: string;
let now = Date.parse('2026-11-20T09:00:00.000Z');
const png = pngFile(10, 10);
const MINUTE = 60_000;

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());

async function worker(overrides: Partial<UserRow> = {}) {
  const user = await makeUser(t.deps.db, overrides);
  return { user, token: await t.tokenFor(user) };
}
const start = (id: string, token: string) => t.call('POST', `/api/tasks/${id}/start`, { token });
const myRecords = (token: string) => t.call('GET', '/api/tasks/user', { token });
const record = (userId: string, taskId: string) =>
  t.deps.db
    .selectFrom('user_tasks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('task_id', '=', taskId)
    .executeTakeFirstOrThrow();
const unusedComments = (taskId: string) =>
  t.deps.db
    .selectFrom('task_comments')
    .select('text')
    .where('task_id', '=', taskId)
    .where('used_by', 'is', null)
    .execute()
    .then((rows) => rows.map((r) => r.text).sort());
const iso = (ms: number) => new Date(ms).toISOString();

describe('the time limit of a task', () => {
  it('is 60 minutes unless set; 5 to 10,080 minutes, refused otherwise with the field', async () => {
    const plain = await createTask(t, adminToken);
    expect(
      (await t.call('GET', `/api/tasks/${plain}`, { token: adminToken })).body.data.timeLimitMinutes,
    ).toBe(60);
    const quick = await createTask(t, adminToken, { timeLimitMinutes: 5 });
    expect((await taskRow(t, quick)).time_limit_minutes).toBe(5);
    for (const bad of [4, 10_081, 30.5, 'soon']) {
      const res = await t.call('POST', '/api/tasks', {
        token: adminToken,
        body: { title: 'x', description: 'y', reward: 1, maxCompletions: 1, timeLimitMinutes: bad },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.errors.timeLimitMinutes).toMatch(/5 to 10,080/);
    }
    const week = await t.call('PUT', `/api/tasks/${plain}`, {
      token: adminToken,
      body: { timeLimitMinutes: 10_080 },
    });
    expect(week.status).toBe(200);
    expect(week.body.data.timeLimitMinutes).toBe(10_080);
  });

  it('gives a started record its expiresAt, and a restart after a rejection a new one', async () => {
    const id = await createTask(t, adminToken, { timeLimitMinutes: 30 });
    const { user, token } = await worker();
    const started = await start(id, token);
    expect(started.status).toBe(201);
    expect(started.body.data.expiresAt).toBe(iso(now + 30 * MINUTE));
    expect((await submit(t, token, { task: id, file: png })).status).toBe(201);
    expect((await myRecords(token)).body.data[0]).toMatchObject({ status: 'completed', expiresAt: null });
    await settleLatest(t, user._id, id, 'rejected');
    now += 10 * MINUTE;
    const again = await t.call('POST', `/api/tasks/${id}/restart`, { token });
    expect(again.status).toBe(200);
    expect(again.body.data.expiresAt).toBe(iso(now + 30 * MINUTE));
  });
});

describe('a record past its time', () => {
  it('reads as expired at once, refuses a proof with task_expired, and loses nothing on disk', async () => {
    const id = await createTask(t, adminToken, { timeLimitMinutes: 5, automaticComments: ['Tek yorum'] });
    const { token } = await worker();
    expect((await start(id, token)).body.data.automaticComment).toBe('Tek yorum');
    // just in time: accepted
    const early = await worker();
    const other = await createTask(t, adminToken, { timeLimitMinutes: 5 });
    await start(other, early.token);
    now += 5 * MINUTE - 1_000;
    expect((await submit(t, early.token, { task: other, file: png })).status).toBe(201);
    // one second later the first record's time is up (the sweep has not run yet)
    now += 1_000;
    const [mine] = (await myRecords(token)).body.data;
    expect(mine).toMatchObject({ status: 'expired', expiresAt: null, automaticComment: null });
    const late = await submit(t, token, { task: id, file: png });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: 'task_expired' });
    const task = await t.call('GET', `/api/tasks/${id}`, { token });
    expect(task.body.data.userTask.status).toBe('expired');
  });

  it('gives its slot and comment back once, when the sweep runs after the grace period', async () => {
    const id = await createTask(t, adminToken, {
      timeLimitMinutes: 5,
      maxCompletions: 1,
      automaticComments: ['A'],
    });
    const { user, token } = await worker();
    await start(id, token);
    expect((await taskRow(t, id)).reserved).toBe(1);
    now += 5 * MINUTE;
    // within the grace a proof still on its way may land: nothing is ended yet
    expect(await expireDue(t.deps.db, iso(now), id)).toBe(0);
    now += SWEEP_GRACE_MS;
    const sweeps = await Promise.all([0, 1, 2].map(() => expireDue(t.deps.db, iso(now), id)));
    expect(sweeps.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await expireDue(t.deps.db, iso(now), id)).toBe(0);
    expect((await taskRow(t, id)).reserved).toBe(0);
    expect(await unusedComments(id)).toEqual(['A']);
    expect(await record(user._id, id)).toMatchObject({
      status: 'expired',
      automatic_comment: null,
      expired_at: iso(now),
    });
  });

  it('can be started again: a new time limit and a comment drawn anew', async () => {
    const id = await createTask(t, adminToken, { timeLimitMinutes: 5, automaticComments: ['Bir', 'İki'] });
    const { user, token } = await worker();
    await start(id, token);
    // while in progress, a second start is refused
    expect((await start(id, token)).body.error.code).toBe('task_already_started');
    now += 5 * MINUTE + SWEEP_GRACE_MS;
    const again = await start(id, token);
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ status: 'in_progress', expiresAt: iso(now + 5 * MINUTE) });
    expect(['Bir', 'İki']).toContain(again.body.data.automaticComment);
    expect((await taskRow(t, id)).reserved).toBe(1);
    expect(await unusedComments(id)).toHaveLength(1);
    expect((await record(user._id, id)).status).toBe('in_progress');
  });
});

describe('slots and comments come back under load', () => {
  it('100 start a task of 10 slots and 10 comments, let it expire; 10 others get all 10 comments', async () => {
    const texts = Array.from({ length: 10 }, (_, i) => `Yorum ${i + 1}`);
    const id = await createTask(t, adminToken, {
      timeLimitMinutes: 5,
      maxCompletions: 10,
      automaticComments: texts,
    });
    const crowd = await Promise.all(Array.from({ length: 100 }, () => worker()));
    const first = await Promise.all(crowd.map((w) => start(id, w.token)));
    expect(first.filter((r) => r.status === 201)).toHaveLength(10);
    expect(first.filter((r) => r.status === 409).every((r) => r.body.error.code === 'task_full')).toBe(true);
    expect(await unusedComments(id)).toEqual([]);
    now += 5 * MINUTE + SWEEP_GRACE_MS;
    // the next starts end the expired records first (the task's own sweep), racing one another
    const others = await Promise.all(Array.from({ length: 10 }, () => worker()));
    const second = await Promise.all(others.map((w) => start(id, w.token)));
    expect(second.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(second.map((r) => r.body.data.automaticComment).sort()).toEqual([...texts].sort());
    expect((await taskRow(t, id)).reserved).toBe(10);
    const expired = await t.deps.db
      .selectFrom('user_tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('task_id', '=', id)
      .where('status', '=', 'expired')
      .executeTakeFirstOrThrow();
    expect(Number(expired.n)).toBe(10);
  });

  it('a proof racing its own expiry either lands or is refused, never both', async () => {
    let landed = 0;
    let refused = 0;
    for (let i = 0; i < 12; i++) {
      const id = await createTask(t, adminToken, {
        timeLimitMinutes: 5,
        maxCompletions: 1,
        automaticComments: ['Z'],
      });
      const { user, token } = await worker();
      await start(id, token);
      now += 5 * MINUTE - 500;
      // the proof is sent in time while a sweep that believes the grace is over runs at once
      const sweepAt = iso(now + 500 + SWEEP_GRACE_MS + i);
      const [sent, swept] = await Promise.all([
        submit(t, token, { task: id, file: png }),
        // the sweep starts at once or a little later, so each side wins some rounds
        new Promise<number>((resolve, reject) => {
          setTimeout(() => expireDue(t.deps.db, sweepAt, id).then(resolve, reject), (i % 4) * 15);
        }),
      ]);
      const row = await record(user._id, id);
      const task = await taskRow(t, id);
      if (sent.status === 201) {
        landed++;
        expect(swept).toBe(0);
        expect(row.status).toBe('completed');
        expect(row.automatic_comment).toBe('Z');
        expect(task.reserved).toBe(1);
        expect(await unusedComments(id)).toEqual([]);
      } else {
        refused++;
        expect(sent.body.error.code).toBe('task_expired');
        expect(swept).toBe(1);
        expect(row.status).toBe('expired');
        expect(task.reserved).toBe(0);
        expect(await unusedComments(id)).toEqual(['Z']);
        const pending = await t.deps.db
          .selectFrom('submissions')
          .select('_id')
          .where('user_task_id', '=', row._id)
          .execute();
        expect(pending).toEqual([]);
      }
      now += 10 * MINUTE;
    }
    expect(landed + refused).toBe(12);
    console.log(`proof vs expiry: ${landed} landed, ${refused} refused`);
  });
});

describe('a task deleted or closed', () => {
  it.each([
    ['deleted', (id: string) => t.call('DELETE', `/api/tasks/${id}`, { token: adminToken })],
    [
      'made inactive',
      (id: string) => t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { status: 'inactive' } }),
    ],
  ])(
    'when %s, ends its records in progress at once; proofs already sent stay reviewable',
    async (_how, close) => {
      const id = await createTask(t, adminToken, { maxCompletions: 5, automaticComments: ['P', 'Q', 'R'] });
      const busy = await worker();
      const done = await worker();
      await start(id, busy.token);
      await start(id, done.token);
      expect((await submit(t, done.token, { task: id, file: png })).status).toBe(201);
      expect((await taskRow(t, id)).reserved).toBe(2);
      expect((await close(id)).status).toBe(200);
      // the one in progress ended with its slot and comment; the one sent keeps its slot
      expect((await taskRow(t, id)).reserved).toBe(1);
      expect(await unusedComments(id)).toHaveLength(2);
      expect(await record(busy.user._id, id)).toMatchObject({ status: 'expired', end_reason: 'task_closed' });
      const [mine] = (await myRecords(busy.token)).body.data;
      expect(mine).toMatchObject({ status: 'expired', endReason: 'task_closed', automaticComment: null });
      const late = await submit(t, busy.token, { task: id, file: png });
      expect(late.status).toBe(409);
      expect(late.body.error.code).toBe('task_closed');
      // the pending proof is still reviewed and paid
      const sent = await t.deps.db
        .selectFrom('submissions')
        .select('_id')
        .where('user_id', '=', done.user._id)
        .where('task_id', '=', id)
        .executeTakeFirstOrThrow();
      const review = await t.call('PUT', `/api/submissions/${sent._id}/review`, {
        token: adminToken,
        body: { status: 'approved', feedback: 'Tamam' },
      });
      expect(review.status).toBe(200);
      expect(review.body.data.status).toBe('approved');
      expect(await checkTaskRecords(t.deps.db)).toEqual([]);
    },
  );
});

describe('the task list', () => {
  it('hides a task while its proof waits for review, as after it was paid; shows it again after a rejection', async () => {
    const id = await createTask(t, adminToken, { title: 'Bekleyen kanıt görevi' });
    const { user, token } = await worker();
    const listed = async () =>
      (await t.call('GET', '/api/tasks?q=Bekleyen&limit=100', { token })).body.data.items.map(
        (x: { _id: string }) => x._id,
      );
    await start(id, token);
    expect(await listed()).toContain(id);
    expect((await submit(t, token, { task: id, file: png })).status).toBe(201);
    expect(await listed()).not.toContain(id);
    await settleLatest(t, user._id, id, 'rejected');
    expect(await listed()).toContain(id);
  });
});

describe('the doctor', () => {
  it('finds nothing after all of the above, and each broken rule when one is broken', async () => {
    expect(await checkTaskRecords(t.deps.db)).toEqual([]);
    const id = await createTask(t, adminToken, { timeLimitMinutes: 5, automaticComments: ['K'] });
    const { user, token } = await worker();
    await start(id, token);
    now += 5 * MINUTE + SWEEP_GRACE_MS;
    await expireDue(t.deps.db, iso(now), id);
    expect(await checkTaskRecords(t.deps.db)).toEqual([]);
    // an expiry that kept its comment, and a slot not given back
    await t.deps.db
      .updateTable('user_tasks')
      .set({ automatic_comment: 'K' })
      .where('user_id', '=', user._id)
      .execute();
    await t.deps.db
      .updateTable('task_comments')
      .set({ used_by: user._id })
      .where('task_id', '=', id)
      .execute();
    await t.deps.db.updateTable('tasks').set({ reserved: 1 }).where('_id', '=', id).execute();
    const found = await checkTaskRecords(t.deps.db);
    expect(found).toHaveLength(3);
    expect(found.join('\n')).toMatch(
      /still holds its comment[\s\S]*still given to expired record[\s\S]*counts 1 slots taken but 0/,
    );
  });
});
