// The log names what each row is about as it is now: a user by name and email, a task by its
// title, a proof by its worker and task, a payout by its worker and amount; a deleted account
// or task reads as deleted, and the people a row's facts name by id are named too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeTask, makeWithdrawal } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  ({ t, adminToken } = await createAdminTestApp());
});
afterAll(() => t.dispose());

async function row(query: string) {
  const res = await t.call('GET', `/api/admin/audit?limit=1&${query}`, { token: adminToken });
  expect(res.status).toBe(200);
  return res.body.data.items[0];
}

describe('the target of a row', () => {
  it('is a user by name and email, and a deleted one as deleted with no name', async () => {
    const user = await makeUser(t.deps.db, { name: 'Şule Güneş', email: 'sule.gunes@example.com' });
    await t.call('PUT', `/api/admin/users/${user._id}`, {
      token: adminToken,
      body: { name: user.name, email: user.email, status: 'suspended' },
    });
    expect((await row(`targetId=${user._id}`)).target).toEqual({
      type: 'user',
      id: user._id,
      user: { _id: user._id, name: 'Şule Güneş', email: 'sule.gunes@example.com', deleted: false },
      task: null,
      amount: null,
      gone: false,
    });
    await t.call('DELETE', `/api/admin/users/${user._id}`, { token: adminToken });
    expect((await row(`targetId=${user._id}&action=user.status`)).target.user).toEqual({
      _id: user._id,
      name: null,
      email: null,
      deleted: true,
    });
  });

  it('is a task by its title, marked deleted after its deletion', async () => {
    const admin = await makeUser(t.deps.db, { role: 'admin' });
    const taskId = await makeTask(t.deps.db, { title: 'Uygulamayı puanla', created_by: admin._id });
    await t.call('PUT', `/api/tasks/${taskId}/feature`, { token: adminToken, body: { isFeatured: true } });
    expect((await row(`targetId=${taskId}`)).target.task).toEqual({
      _id: taskId,
      title: 'Uygulamayı puanla',
      deleted: false,
    });
    expect((await t.call('DELETE', `/api/tasks/${taskId}`, { token: adminToken })).status).toBe(200);
    expect((await row(`targetId=${taskId}&action=task.feature`)).target.task).toMatchObject({
      deleted: true,
    });
  });

  it('is a proof by its worker and its task, and a payout by its worker and amount', async () => {
    const worker = await makeUser(t.deps.db, { name: 'Kanıtçı' });
    const { submissionId, taskId } = await makePendingSubmission(t.deps.db, worker._id);
    const reviewed = await t.call('PUT', `/api/submissions/${submissionId}/review`, {
      token: adminToken,
      body: { status: 'approved', feedback: 'ok' },
    });
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    const proof = (await row(`targetId=${submissionId}`)).target;
    expect(proof).toMatchObject({ type: 'submission', user: { name: 'Kanıtçı' }, task: { _id: taskId } });
    expect(proof.task.title).toEqual(expect.any(String));
    await fund(t.deps.db, worker._id, 10_000);
    const withdrawalId = await makeWithdrawal(t.deps.db, worker._id, { amount: 4_250 });
    const paid = await t.call('PUT', `/api/admin/withdraws/${withdrawalId}/approve`, {
      token: adminToken,
      body: {},
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect((await row(`targetId=${withdrawalId}`)).target).toMatchObject({
      type: 'withdrawal',
      user: { _id: worker._id, name: 'Kanıtçı' },
      amount: 4_250,
      gone: false,
    });
  });

  it("is gone when its row no longer exists at all, and names a fact's user by id", async () => {
    const admin = await makeUser(t.deps.db, { role: 'admin', name: 'Eski Admin' });
    await t.deps.db
      .insertInto('audit_log')
      .values({
        at: new Date().toISOString(),
        actor_id: admin._id,
        actor_name: 'Eski Admin',
        actor_email: admin.email,
        action: 'withdrawal.reject',
        target_type: 'withdrawal',
        target_id: 'ffffffffffffffffffffffff',
        changes: JSON.stringify({ user: admin._id, amount: 100 }),
      })
      .execute();
    const r = await row('targetId=ffffffffffffffffffffffff');
    expect(r.target).toMatchObject({ user: null, amount: null, gone: true });
    expect(r.people).toEqual({
      [admin._id]: { _id: admin._id, name: 'Eski Admin', email: admin.email, deleted: false },
    });
  });
});
