// The log speaks the API's words: a row names each field as the API and the screens do
// (isFeatured, banReason, the settings as the settings API nests them), never as a column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MINIMUM_PAYOUT_TL } from '../../contract/constants';
import { makeUser } from '../../testing/factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import { createTask } from '../tasks/task-test-helpers';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  ({ t, adminToken } = await createAdminTestApp());
});
afterAll(() => t.dispose());

async function lastRow(action: string) {
  const res = await t.call('GET', `/api/admin/audit?action=${action}&limit=1`, { token: adminToken });
  expect(res.status).toBe(200);
  return res.body.data.items[0] as { changes: Record<string, unknown> };
}

describe('the fields of a row', () => {
  it.each([
    {
      scenario: 'a task edit',
      action: 'task.update',
      run: async () => {
        const id = await createTask(t, adminToken, { maxCompletions: 5 });
        const body = {
          isFeatured: true,
          maxCompletions: 7,
          taskLink: 'https://example.test/app',
          steps: ['Uygulamayı aç'],
          timeLimitMinutes: 30,
        };
        return t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body });
      },
      changes: {
        isFeatured: [false, true],
        maxCompletions: [5, 7],
        taskLink: [null, 'https://example.test/app'],
        steps: [[], ['Uygulamayı aç']],
        timeLimitMinutes: [60, 30],
      },
    },
    {
      scenario: "a task's reward (kuruş, as every amount in the log)",
      action: 'task.update',
      run: async () => {
        const id = await createTask(t, adminToken, { reward: 3 });
        return t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { reward: 4.5 } });
      },
      changes: { reward: [300, 450] },
    },
    {
      scenario: 'featuring a task',
      action: 'task.feature',
      run: async () => {
        const id = await createTask(t, adminToken);
        return t.call('PUT', `/api/tasks/${id}/feature`, { token: adminToken, body: { isFeatured: true } });
      },
      changes: { isFeatured: [false, true] },
    },
    {
      scenario: 'a ban',
      action: 'user.status',
      run: async () => {
        const user = await makeUser(t.deps.db, { name: 'Yasaklanacak', email: 'ban.me@example.test' });
        return t.call('PUT', `/api/admin/users/${user._id}`, {
          token: adminToken,
          body: { name: user.name, email: user.email, status: 'banned', banReason: 'Sahte kanıt' },
        });
      },
      changes: { status: ['active', 'banned'], banReason: [null, 'Sahte kanıt'] },
    },
    {
      scenario: 'a settings change',
      action: 'settings.update',
      run: () =>
        t.call('PUT', '/api/settings', {
          token: adminToken,
          body: { site: { name: 'Kelime Sitesi' }, payment: { minimumPayout: 75 } },
        }),
      changes: {
        'site.name': ['TaskReward', 'Kelime Sitesi'],
        'payment.minimumPayout': [DEFAULT_MINIMUM_PAYOUT_TL, 75],
      },
    },
  ])('names them as the API does: $scenario', async ({ action, run, changes }) => {
    expect((await run()).status).toBe(200);
    expect((await lastRow(action)).changes).toEqual(changes);
  });

  it('never names a field by a column (no snake_case key in the whole log)', async () => {
    const rows = await t.deps.db.selectFrom('audit_log').select(['action', 'changes']).execute();
    const keys = rows.flatMap((r) => Object.keys(JSON.parse(r.changes)).map((k) => `${r.action} ${k}`));
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.filter((k) => /_/.test(k.split(' ')[1] ?? ''))).toEqual([]);
  });
});
