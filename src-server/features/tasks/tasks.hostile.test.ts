import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { multipart } from '../submissions/submission-test-helpers';
import { createTask, taskBody } from './task-test-helpers';

let t: TestApp;
let adminToken: string;
let userToken: string;
let taskId: string;

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  userToken = await t.tokenFor(await makeUser(t.deps.db));
  taskId = await createTask(t, adminToken, { automaticComments: ['a'] });
  await t.call('POST', `/api/tasks/${taskId}/start`, { token: userToken });
});
afterAll(() => t.dispose());

describe('no input to the task, submission or file routes causes a 5xx', () => {
  it.each([
    '/api/tasks?page=999999&limit=100',
    '/api/tasks?q=%00%27%22%3B--%20DROP%20TABLE%20tasks',
    '/api/tasks?q=%F0%9F%98%80%E2%80%AE',
    '/api/tasks?page=1e3',
    '/api/tasks?page=-1',
    '/api/tasks?limit=0x10',
    '/api/tasks?sort=__proto__',
    '/api/tasks?all=yes',
    '/api/tasks?status=deleted',
    `/api/tasks/${'x'.repeat(5000)}`,
    '/api/tasks/%E2%80%AE',
    '/api/submissions/user?status[]=pending',
    '/api/files/proofs/x?exp=99999999999999999999&sig=a',
    '/api/files/proofs/%2e%2e%2f%2e%2e%2fsecret.key?exp=1&sig=a',
    '/api/files/images/%00',
  ])('GET %s', async (path) => {
    for (const token of [undefined, userToken, adminToken]) {
      const res = await t.call('GET', path, { token });
      expect(res.status).toBeLessThan(500);
    }
  });

  it.each([
    ['a huge reward', { reward: 1e300 }],
    ['a reward of Infinity as text', { reward: 'Infinity' }],
    ['max completions beyond a million', { maxCompletions: 1e12 }],
    ['a far-future deadline', { deadline: '99999-01-01' }],
    ['a deadline with an offset', { deadline: '2099-01-01T10:00:00+14:00' }],
    ['comments as an object', { automaticComments: { a: 1 } }],
    ['steps as a number', { steps: 5 }],
    ['an estimated time of -1', { estimatedTime: -1 }],
    ['a prototype key', JSON.parse('{"__proto__": {"status": "active"}, "title": "x"}')],
  ])('POST and PUT /api/tasks with %s', async (_name, change) => {
    const created = await t.call('POST', '/api/tasks', { token: adminToken, body: taskBody(change) });
    expect(created.status).toBeLessThan(500);
    const updated = await t.call('PUT', `/api/tasks/${taskId}`, { token: adminToken, body: change });
    expect(updated.status).toBeLessThan(500);
  });

  it.each([
    ['a text field over 16 KB', [{ name: 'description', value: 'x'.repeat(20_000) }], 422],
    ['a hundred parts', Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, value: 'v' })), 422],
    ['a part without a name', [{ name: '', value: 'v' }], 422],
    [
      'two proof files',
      [
        { name: 'proofImage', filename: 'a.txt', data: Buffer.from('text') },
        { name: 'proofImage', filename: 'b.txt', data: Buffer.from('text') },
      ],
      415,
    ],
  ])('POST /api/submissions with %s', async (_name, parts, status) => {
    const { body, contentType } = multipart([{ name: 'task', value: taskId }, ...parts]);
    const res = await t.call('POST', '/api/submissions', {
      token: userToken,
      raw: body,
      headers: { 'Content-Type': contentType },
    });
    expect(res.status).toBe(status);
  });
});
