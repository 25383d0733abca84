// The proof of a submission follows its task's requiredProof: an image, a link, a
// code, a text or nothing. A field the type does not take is refused with 422 and the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProofType } from '../../contract/constants';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createTask } from '../tasks/task-test-helpers';
import { multipart, onDisk, type Part } from './submission-test-helpers';

let t: TestApp;
let adminToken: string;
const png = pngFile(10, 10);

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());

/** A task of this proof type, started by a new worker. */
async function startedTask(requiredProof: ProofType) {
  const taskId = await createTask(t, adminToken, { requiredProof });
  const user = await makeUser(t.deps.db);
  const token = await t.tokenFor(user);
  expect((await t.call('POST', `/api/tasks/${taskId}/start`, { token })).status).toBe(201);
  return { taskId, token, user };
}

function send(
  token: string,
  taskId: string,
  fields: { proofUrl?: string; proofText?: string; image?: boolean },
) {
  const parts: Part[] = [{ name: 'task', value: taskId }];
  if (fields.proofUrl !== undefined) parts.push({ name: 'proofUrl', value: fields.proofUrl });
  if (fields.proofText !== undefined) parts.push({ name: 'proofText', value: fields.proofText });
  if (fields.image) parts.push({ name: 'proofImage', filename: 'p.png', type: 'image/png', data: png });
  const { body, contentType } = multipart(parts);
  return t.call('POST', '/api/submissions', { token, raw: body, headers: { 'Content-Type': contentType } });
}

describe('each proof type', () => {
  it('link: takes an http(s) URL and shows it to the admin', async () => {
    const { taskId, token } = await startedTask('link');
    const res = await send(token, taskId, { proofUrl: '  https://example.com/gonderi/123?x=1  ' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      proofType: 'link',
      proofUrl: 'https://example.com/gonderi/123?x=1',
      proofText: null,
      proofImageUrl: null,
    });
    const admin = await t.call('GET', '/api/admin/submissions?limit=1', { token: adminToken });
    expect(admin.body.data.items[0]).toMatchObject({
      proofType: 'link',
      proofUrl: 'https://example.com/gonderi/123?x=1',
    });
  });

  it.each([
    ['no link', {}, 'Please enter the link to your proof'],
    [
      'a javascript: link',
      { proofUrl: 'javascript:alert(1)' },
      'The link must start with http:// or https://',
    ],
    ['a link without a host', { proofUrl: 'https://' }, 'The link must start with http:// or https://'],
    [
      'a link with spaces',
      { proofUrl: 'https://a.example/x y' },
      'The link must start with http:// or https://',
    ],
    [
      'an over-long link',
      { proofUrl: `https://a.example/${'x'.repeat(2000)}` },
      'The link must start with http:// or https://',
    ],
  ])('link: refuses %s', async (_name, fields, message) => {
    const { taskId, token } = await startedTask('link');
    const res = await send(token, taskId, fields);
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual({ proofUrl: message });
  });

  it('code: takes 1 to 200 characters, refuses 0 and 201', async () => {
    const { taskId, token } = await startedTask('code');
    expect((await send(token, taskId, { proofText: '   ' })).body.error.errors).toEqual({
      proofText: 'Please enter the code: 1 to 200 characters',
    });
    expect((await send(token, taskId, { proofText: 'ç'.repeat(201) })).status).toBe(422);
    const ok = await send(token, taskId, { proofText: ' KOD-2026-ÇĞ ' });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ proofType: 'code', proofText: 'KOD-2026-ÇĞ', proofUrl: null });
  });

  it('text: takes 10 to 5,000 characters', async () => {
    const { taskId, token } = await startedTask('text');
    expect((await send(token, taskId, { proofText: 'çok kısa' })).body.error.errors).toEqual({
      proofText: 'Please write your proof: 10 to 5,000 characters',
    });
    expect((await send(token, taskId, { proofText: 'a'.repeat(5001) })).status).toBe(422);
    const text = 'Anketi doldurdum.\nSon soruda "evet" dedim.';
    const ok = await send(token, taskId, { proofText: text });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ proofType: 'text', proofText: text });
  });

  it('none: takes the submission alone', async () => {
    const { taskId, token } = await startedTask('none');
    const ok = await send(token, taskId, {});
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({
      proofType: 'none',
      proofUrl: null,
      proofText: null,
      proofImageUrl: null,
    });
  });

  it('screenshot: still needs the image (proof_required)', async () => {
    const { taskId, token } = await startedTask('screenshot');
    const res = await send(token, taskId, {});
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('proof_required');
    const ok = await send(token, taskId, { image: true });
    expect(ok.status).toBe(201);
    expect(ok.body.data.proofType).toBe('screenshot');
  });
});

describe('a field the type does not take', () => {
  it.each([
    ['screenshot', { image: true, proofUrl: 'https://a.example' }, 'proofUrl'],
    ['screenshot', { image: true, proofText: 'metin burada' }, 'proofText'],
    ['link', { proofUrl: 'https://a.example', image: true }, 'proofImage'],
    ['link', { proofUrl: 'https://a.example', proofText: 'kod' }, 'proofText'],
    ['code', { proofText: 'KOD', proofUrl: 'https://a.example' }, 'proofUrl'],
    ['text', { proofText: 'yeterince uzun bir metin', image: true }, 'proofImage'],
    ['none', { proofText: 'hiçbir şey' }, 'proofText'],
    ['none', { image: true }, 'proofImage'],
  ] as const)(
    '%s refuses %o on %s, stores nothing and keeps the record open',
    async (type, fields, field) => {
      const { taskId, token, user } = await startedTask(type);
      const before = await onDisk(t);
      const res = await send(token, taskId, fields);
      expect(res.status).toBe(422);
      expect(res.body.error.errors[field]).toBe('This task does not take this kind of proof');
      expect(await onDisk(t)).toEqual({ proofs: before.proofs, temp: [] });
      const record = await t.deps.db
        .selectFrom('user_tasks')
        .select('status')
        .where('user_id', '=', user._id)
        .where('task_id', '=', taskId)
        .executeTakeFirstOrThrow();
      expect(record.status).toBe('in_progress');
    },
  );
});
