import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_CSP } from '../../http/security';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { submit } from '../submissions/submission-test-helpers';
import { createTask } from '../tasks/task-test-helpers';
import { PROOF_URL_TTL_SECONDS, publicImageUrl, signedProofUrl } from './file-urls';

let t: TestApp;
let now = Date.now();
let adminToken: string;
let ownerToken: string;
let proofUrl: string;

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  ownerToken = await t.tokenFor(await makeUser(t.deps.db));
  const taskId = await createTask(t, adminToken);
  await t.call('POST', `/api/tasks/${taskId}/start`, { token: ownerToken });
  const res = await submit(t, ownerToken, { task: taskId, file: pngFile(12, 12) });
  proofUrl = res.body.data.proofImageUrl;
});
afterAll(() => t.dispose());

const get = async (url: string) => {
  const res = await t.app.request(url);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('GET /api/files/proofs/{name}', () => {
  it('serves the proof to its owner through the signed URL, privately and sandboxed', async () => {
    const res = await get(proofUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/png');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Content-Security-Policy')).toBe(FILE_CSP);
    expect(res.headers.get('Cache-Control')).toMatch(/^private/);
    const name = proofUrl.split('/').pop()!.split('?')[0];
    const stored = await t.deps.files.read('proofs', name);
    expect(res.bytes.equals(stored!.bytes)).toBe(true);
  });

  it('serves the proof to admins through the URL of their list', async () => {
    const list = await t.call('GET', '/api/submissions', { token: adminToken });
    const res = await get(list.body.data.items[0].proofImageUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/png');
  });

  it('refuses the URL once it expired', async () => {
    const saved = now;
    now += (PROOF_URL_TTL_SECONDS + 1) * 1000;
    try {
      expect((await get(proofUrl)).status).toBe(403);
    } finally {
      now = saved;
    }
  });

  it.each([
    ['a wrong signature', (u: string) => u.replace(/sig=.{4}/, 'sig=AAAA')],
    ['a pushed-back expiry', (u: string) => u.replace(/exp=(\d+)/, (_m, e) => `exp=${Number(e) + 3600}`)],
    ['no signature', (u: string) => u.replace(/&sig=.*$/, '')],
    ['no query at all', (u: string) => u.split('?')[0]],
    ['an expiry that is not a number', (u: string) => u.replace(/exp=\d+/, 'exp=abc')],
    ['another file name with this signature', (u: string) => u.replace(/proofs\/[0-9a-f]{4}/, 'proofs/0000')],
    ['a path instead of a name', (u: string) => u.replace(/proofs\/[^?]+/, 'proofs/..%2F..%2Fsecret.key')],
  ])('refuses %s with a 403', async (_name, change) => {
    const res = await get(change(proofUrl));
    expect(res.status).toBe(403);
  });

  it('answers 404 for a validly signed name that is not stored', async () => {
    const url = signedProofUrl(t.deps.secret, `${'a'.repeat(32)}.png`, new Date(now));
    expect((await get(url)).status).toBe(404);
  });
});

describe('GET /api/files/images/{name}', () => {
  it('serves a stored public image to anyone, cached for good', async () => {
    const store = t.deps.files;
    const name = await store.save('images', pngFile(), 'image/png');
    const res = await get(publicImageUrl(name));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/png');
    expect(res.headers.get('Cache-Control')).toContain('immutable');
    expect(res.headers.get('Content-Security-Policy')).toBe(FILE_CSP);
    await store.remove('images', name);
    expect((await get(publicImageUrl(name))).status).toBe(404);
  });

  it.each([
    ['an unknown name', `/api/files/images/${'b'.repeat(32)}.png`],
    ['a path', '/api/files/images/..%2Ftaskreward.db'],
    ['a proof through the public route', () => proofUrl.replace('/proofs/', '/images/').split('?')[0]],
  ])('answers 404 for %s', async (_name, url) => {
    expect((await get(typeof url === 'string' ? url : url())).status).toBe(404);
  });
});
