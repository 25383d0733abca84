import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../storage/file-store';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { startS3Server, type TestS3 } from '../../testing/s3-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { submit } from '../submissions/submission-test-helpers';
import { createTask } from '../tasks/task-test-helpers';

// Two app nodes (each its own data folder) with one bucket and one TOKEN_SECRET: what a site
// behind a load balancer runs. A proof uploaded through one is served by the other.
let s3: TestS3;
let a: TestApp;
let b: TestApp;
let userToken: string;
let proofUrl: string;
let proofName: string;
let thumbName: string;
const upload = pngFile(14, 10, { text: 'proof' });

beforeAll(async () => {
  s3 = await startS3Server();
  const env = { ...s3.env, S3_PREFIX: 'site', TOKEN_SECRET: 'one-secret-every-node-shares-0123456789' };
  a = await createTestApp({ env });
  b = await createTestApp({ env });
  const adminToken = await a.tokenFor(await makeUser(a.deps.db, { role: 'admin' }));
  userToken = await a.tokenFor(await makeUser(a.deps.db));
  const taskId = await createTask(a, adminToken);
  await a.call('POST', `/api/tasks/${taskId}/start`, { token: userToken });
  const res = await submit(a, userToken, { task: taskId, file: upload });
  expect(res.status).toBe(201);
  proofUrl = res.body.data.proofImageUrl;
  const row = await a.deps.db.selectFrom('submissions').selectAll().executeTakeFirstOrThrow();
  proofName = row.proof_file!;
  thumbName = row.proof_thumb!;
});
afterAll(async () => {
  await a?.dispose();
  await b?.dispose();
  await s3?.close();
});

const get = async (t: TestApp, url: string) => {
  const res = await t.app.request(url);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};

/** Every file under a data folder's files/ (empty when the bucket keeps them). */
function localFiles(t: TestApp): string[] {
  return readdirSync(join(t.dataDir, 'files'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe('proofs in an S3 bucket', () => {
  it('are stored in the bucket, under the prefix, and not in the data folder', async () => {
    expect(proofUrl).toContain(`/api/files/proofs/${proofName}?`);
    expect(await s3.keys()).toEqual([`site/proofs/${proofName}`, `site/proofs/${thumbName}`].sort());
    expect(localFiles(a)).toEqual([]);
    expect(await new LocalFileStore(a.folder).list('proofs')).toEqual([]);
    // the upload was staged on the node's disk and is gone from there
    expect(await a.deps.files.listTemp()).toEqual([]);
  });

  it('are served through their signed URL by the node that took the upload', async () => {
    const res = await get(a, proofUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/png');
    expect(res.headers.get('Cache-Control')).toMatch(/^private/);
    const stored = await a.deps.files.read('proofs', proofName);
    expect(res.bytes.equals(stored!.bytes)).toBe(true);
  });

  it('are served through the same signed URL by any other node', async () => {
    const res = await get(b, proofUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/png');
    expect(res.bytes.equals((await get(a, proofUrl)).bytes)).toBe(true);
    expect(localFiles(b)).toEqual([]);
  });

  it('keep the signature check on every node', async () => {
    const forged = proofUrl.replace(/sig=.{4}/, 'sig=AAAA');
    expect((await get(a, forged)).status).toBe(403);
    expect((await get(b, forged)).status).toBe(403);
    expect((await get(b, proofUrl.replace(/proofs\/[^?]+/, 'proofs/..%2F..%2Fsecret.key'))).status).toBe(403);
  });

  it('answer 404 for a signed name the bucket does not have', async () => {
    const { signedProofUrl } = await import('./file-urls');
    const url = signedProofUrl(b.deps.secret, `${'a'.repeat(32)}.png`, new Date());
    expect((await get(b, url)).status).toBe(404);
  });

  it('show their thumbnail through the admin list on either node', async () => {
    const admin = await makeUser(a.deps.db, { role: 'admin', name: 'Reviewer' });
    const list = await a.call('GET', '/api/submissions', { token: await a.tokenFor(admin) });
    const thumbUrl: string = list.body.data.items[0].proofThumbnailUrl;
    expect(thumbUrl).toContain(thumbName);
    const res = await get(b, thumbUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/webp');
  });
});

describe('public images in an S3 bucket', () => {
  it('a profile photo uploaded through one node is in the bucket and served by the other', async () => {
    const data = new FormData();
    data.append('name', 'Ayşe');
    data.append('profileImage', new Blob([new Uint8Array(pngFile(6, 6))], { type: 'image/png' }), 'me.png');
    const res = await a.call('PUT', '/api/users/me', { raw: data, token: userToken });
    expect(res.status).toBe(200);
    const url: string = res.body.data.profileImage;
    const name = url.split('/').pop()!;
    expect(await s3.has(`site/images/${name}`)).toBe(true);
    expect(localFiles(a)).toEqual([]);
    const image = await get(b, url);
    expect(image.status).toBe(200);
    expect(image.headers.get('Content-Type')).toBe('image/png');
    expect(image.headers.get('Cache-Control')).toContain('immutable');

    // a new photo replaces it: the old one leaves the bucket
    const again = new FormData();
    again.append('name', 'Ayşe');
    again.append('profileImage', new Blob([new Uint8Array(pngFile(7, 7))], { type: 'image/png' }), 'me.png');
    const second = await a.call('PUT', '/api/users/me', { raw: again, token: userToken });
    expect(second.status).toBe(200);
    expect(await s3.has(`site/images/${name}`)).toBe(false);
    expect((await get(b, url)).status).toBe(404);
    expect((await get(b, second.body.data.profileImage)).status).toBe(200);
  });
});
