import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app';
import { MAX_PROOF_BYTES } from '../../contract/constants';
import { plantFailure } from '../../db/test-triggers';
import { proofFingerprint } from '../../storage/image';
import { contains, GIF_FILE, jpegWithExif, pngFile, SVG_FILE } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { multipart, onDisk, startedTask, submit } from './submission-test-helpers';

let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());

const started = () => startedTask(t, adminToken);
async function storedBytes(submissionId: string) {
  const row = await t.deps.db
    .selectFrom('submissions')
    .select('proof_file')
    .where('_id', '=', submissionId)
    .executeTakeFirstOrThrow();
  return (await t.deps.files.read('proofs', row.proof_file!))!;
}
/** A PNG signature followed by filler: passes the first-bytes check, so only the size decides. */
const pngLike = (size: number) => Buffer.concat([pngFile(1, 1).subarray(0, 16), Buffer.alloc(size - 16, 7)]);

describe('POST /api/submissions accepts real images and strips them', () => {
  it('gives each proof a private WebP thumbnail of at most 320 px and a 64-bit fingerprint', async () => {
    const { token, taskId } = await started();
    const res = await submit(t, token, { task: taskId, file: pngFile(900, 1600) });
    expect(res.status).toBe(201);
    const thumbUrl: string = res.body.data.proofThumbnailUrl;
    expect(thumbUrl).toMatch(/^\/api\/files\/proofs\/[0-9a-f]{32}\.webp\?exp=\d+&sig=/);
    const thumb = await t.app.request(thumbUrl);
    expect([thumb.status, thumb.headers.get('content-type')]).toEqual([200, 'image/webp']);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 180, 320]);
    // private like its proof: without the signature, or with another file's, nothing
    expect((await t.app.request(thumbUrl.split('?')[0])).status).toBe(403);
    const row = await t.deps.db
      .selectFrom('submissions')
      .select(['proof_hash', 'proof_thumb'])
      .where('_id', '=', res.body.data._id)
      .executeTakeFirstOrThrow();
    expect(row.proof_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(row.proof_hash).toBe(await proofFingerprint((await storedBytes(res.body.data._id)).bytes));
    expect(await t.deps.files.read('proofs', row.proof_thumb!)).not.toBeNull();
  });

  it('stores a PNG re-encoded, without its text chunks', async () => {
    const { token, taskId } = await started();
    const res = await submit(t, token, {
      task: taskId,
      file: pngFile(20, 10, { text: 'GPS 41.01N 28.97E' }),
    });
    expect(res.status).toBe(201);
    const stored = await storedBytes(res.body.data._id);
    expect(stored.contentType).toBe('image/png');
    expect(contains(stored.bytes, 'tEXt')).toBe(false);
    expect(contains(stored.bytes, 'GPS')).toBe(false);
  });

  it('stores a JPEG carrying EXIF GPS re-encoded, with no metadata left', async () => {
    const { token, taskId } = await started();
    const jpeg = jpegWithExif(24, 16);
    expect(contains(jpeg, 'Exif') && contains(jpeg, 'SecretCam')).toBe(true);
    const res = await submit(t, token, {
      task: taskId,
      file: jpeg,
      filename: 'IMG_0001.JPG',
      type: 'image/jpeg',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.proofImageUrl).toMatch(/\.jpg\?/);
    const stored = await storedBytes(res.body.data._id);
    expect(stored.contentType).toBe('image/jpeg');
    expect([stored.bytes[0], stored.bytes[1]]).toEqual([0xff, 0xd8]);
    expect(contains(stored.bytes, 'Exif')).toBe(false);
    expect(contains(stored.bytes, 'SecretCam')).toBe(false);
    expect(stored.bytes.includes(Buffer.from([0xff, 0xe1]))).toBe(false);
  });

  it('judges by the bytes, not the name or the declared type', async () => {
    const { token, taskId } = await started();
    const res = await submit(t, token, {
      task: taskId,
      file: pngFile(),
      filename: 'x.gif',
      type: 'text/plain',
    });
    expect(res.status).toBe(201);
  });

  it('accepts a file of exactly 5,242,880 bytes', async () => {
    const { token, taskId } = await started();
    const file = pngFile(4, 4, { padTo: MAX_PROOF_BYTES });
    expect(file.length).toBe(5_242_880);
    const res = await submit(t, token, { task: taskId, file });
    expect(res.status).toBe(201);
    expect((await storedBytes(res.body.data._id)).bytes.length).toBeLessThan(1000);
  });

  it('ignores a Content-Length that claims more than was sent', async () => {
    const { token, taskId } = await started();
    const { body, contentType } = multipart([
      { name: 'task', value: taskId },
      { name: 'proofImage', filename: 'p.png', type: 'image/png', data: pngFile() },
    ]);
    const res = await t.call('POST', '/api/submissions', {
      token,
      raw: body,
      headers: { 'Content-Type': contentType, 'Content-Length': '999999999' },
    });
    expect(res.status).toBe(201);
  });
});

describe('POST /api/submissions refuses bad files and leaves nothing on disk', () => {
  it.each([
    ['a text file named .png', Buffer.from('I am text, honestly an image'), 'p.png', 415, 'file_type'],
    ['an SVG', SVG_FILE, 'p.svg', 415, 'file_type'],
    ['a GIF', GIF_FILE, 'p.gif', 415, 'file_type'],
    ['a file of 5,242,881 bytes', pngLike(MAX_PROOF_BYTES + 1), 'p.png', 413, 'file_too_large'],
    ['a much larger file', pngLike(12_000_000), 'p.png', 413, 'file_too_large'],
    ['a damaged PNG', pngFile(30, 30).subarray(0, 70), 'p.png', 422, 'image_unreadable'],
    [
      'a PNG claiming 20000 x 20000 pixels',
      (() => {
        const b = Buffer.from(pngFile(2, 2));
        b.writeUInt32BE(20_000, 16);
        b.writeUInt32BE(20_000, 20);
        return b;
      })(),
      'p.png',
      413,
      'image_too_big',
    ],
    ['a tiny non-image', Buffer.from('hi'), 'p.png', 415, 'file_type'],
  ])('refuses %s', async (_name, file, filename, status, code) => {
    const { user, token, taskId } = await started();
    const before = await onDisk(t);
    const res = await submit(t, token, { task: taskId, file, filename });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(await onDisk(t)).toEqual(before);
    const record = await t.deps.db
      .selectFrom('user_tasks')
      .select('status')
      .where('user_id', '=', user._id)
      .executeTakeFirstOrThrow();
    expect(record.status).toBe('in_progress');
    const subs = await t.deps.db
      .selectFrom('submissions')
      .select('_id')
      .where('user_id', '=', user._id)
      .execute();
    expect(subs).toEqual([]);
  });

  it.each([
    ['no file part', []],
    [
      'an empty file part (a form sent without a file)',
      [{ name: 'proofImage', filename: '', data: Buffer.alloc(0) }],
    ],
  ])('refuses %s with proof_required', async (_name, parts) => {
    const { token, taskId } = await started();
    const before = await onDisk(t);
    const { body, contentType } = multipart([{ name: 'task', value: taskId }, ...parts]);
    const res = await t.call('POST', '/api/submissions', {
      token,
      raw: body,
      headers: { 'Content-Type': contentType },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'proof_required', message: 'Please upload a proof image.' });
    expect(await onDisk(t)).toEqual(before);
  });

  it('refuses a file under another name, naming the field the proof goes in', async () => {
    const { token, taskId } = await started();
    const before = await onDisk(t);
    const { body, contentType } = multipart([
      { name: 'task', value: taskId },
      { name: 'photo', filename: 'p.png', type: 'image/png', data: pngFile() },
    ]);
    const res = await t.call('POST', '/api/submissions', {
      token,
      raw: body,
      headers: { 'Content-Type': contentType },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'image_field',
      message: "Send the image in the field 'proofImage'",
      field: 'proofImage',
      errors: { proofImage: "Send the image in the field 'proofImage'" },
    });
    expect(await onDisk(t)).toEqual(before);
  });

  it('refuses an oversized file whose Content-Length claims it is small', async () => {
    const { token, taskId } = await started();
    const before = await onDisk(t);
    const { body, contentType } = multipart([
      { name: 'task', value: taskId },
      { name: 'proofImage', filename: 'p.png', type: 'image/png', data: pngLike(6_000_000) },
    ]);
    const res = await t.call('POST', '/api/submissions', {
      token,
      raw: body,
      headers: { 'Content-Type': contentType, 'Content-Length': '1000' },
    });
    expect([res.status, res.body.error.code]).toEqual([413, 'file_too_large']);
    expect(await onDisk(t)).toEqual(before);
  });
});

describe('POST /api/submissions when the database write fails', () => {
  it('removes the stored file again', async () => {
    const { token, taskId } = await started();
    const before = await onDisk(t);
    const drop = await plantFailure(
      t.deps.db,
      'no_submissions',
      'BEFORE INSERT ON submissions',
      'disk on fire',
    );
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const res = await submit(t, token, { task: taskId, file: pngFile() });
      expect(res.status).toBe(500);
    } finally {
      quiet.mockRestore();
      await drop();
    }
    expect(await onDisk(t)).toEqual(before);
    const record = await t.deps.db
      .selectFrom('user_tasks')
      .select('status')
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(record.status).toBe('in_progress');
  });
});

describe('POST /api/submissions over real HTTP', () => {
  let server: ServerType;
  let base: string;
  beforeAll(async () => {
    server = serve({ fetch: createApp(t.deps).fetch, port: 0, hostname: '127.0.0.1' });
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers a 413 to a client still sending a 20 MB file, and keeps nothing', async () => {
    const { token, taskId } = await started();
    const before = await onDisk(t);
    const { body, contentType } = multipart([
      { name: 'task', value: taskId },
      { name: 'proofImage', filename: 'p.png', type: 'image/png', data: pngLike(20_000_000) },
    ]);
    const res = await fetch(`${base}/api/submissions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType },
      body,
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('file_too_large');
    expect(await onDisk(t)).toEqual(before);
  });

  it('takes a real upload over HTTP', async () => {
    const { token, taskId } = await started();
    const form = new FormData();
    form.set('task', taskId);
    form.set('proofImage', new Blob([new Uint8Array(pngFile(30, 20))], { type: 'image/png' }), 'kanit.png');
    const res = await fetch(`${base}/api/submissions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(201);
  });
});
