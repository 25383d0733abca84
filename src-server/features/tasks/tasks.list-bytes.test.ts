import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createTask } from './task-test-helpers';

// The list's answer is put together from UTF-8 pieces (each row's fixed part encoded once): the
// letters JavaScript keeps as two bytes (ş, ğ, ı, İ), a character outside the BMP and a line
// separator must come out as they went in, for visitors and for workers, and an empty page too.
let t: TestApp;
let userToken: string;
const title = 'Şimdi İğdır’da ılık: “anket” 🚀';
const description = 'Satır\u2028ayırıcı, ölçü %100 ve çğıöşü ÇĞİÖŞÜ';

beforeAll(async () => {
  t = await createTestApp();
  const adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  userToken = await t.tokenFor(await makeUser(t.deps.db));
  await createTask(t, adminToken, { title, description });
  await createTask(t, adminToken, { title: 'Plain ASCII' });
});
afterAll(() => t.dispose());

describe('GET /api/tasks: the answer as bytes', () => {
  it('keeps every letter of the tasks, anonymous and signed in, and says it is JSON', async () => {
    for (const token of [undefined, userToken]) {
      const res = await t.call('GET', '/api/tasks', { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const items = res.body.data.items as { title: string; description: string }[];
      expect(items.map((i) => i.title).sort()).toEqual(['Plain ASCII', title].sort());
      expect(items.find((i) => i.title === title)?.description).toBe(description);
      expect(res.body.data).toMatchObject({ total: 2, page: 1, pages: 1 });
    }
  });

  it('answers an empty page as a whole envelope', async () => {
    const res = await t.call('GET', '/api/tasks?q=nothing-matches-this');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { items: [], total: 0, page: 1, limit: 20, pages: 0 },
    });
  });
});
