import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../contract/schemas';
import { contains, GIF_FILE, jpegFile, pngFile, SVG_FILE } from '../../storage/image-fixtures';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { makePendingSubmission } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.dispose();
});

async function signedIn(overrides: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(t.deps.db, {
    name: 'Ayşe',
    phone: '+90 555 000 00 00',
    address: 'Ankara',
    bio: 'Merhaba',
    ...overrides,
  });
  return { user, token: await t.tokenFor(user) };
}
const put = (token: string | undefined, body: unknown, headers?: Record<string, string>) =>
  t.call('PUT', '/api/users/me', { body, token, headers });
const row = (id: string) =>
  t.deps.db.selectFrom('users').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const store = () => t.deps.files;

function form(
  fields: Record<string, string>,
  photo?: { bytes: Buffer; name?: string; type?: string },
): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (photo) {
    data.append(
      'profileImage',
      new Blob([new Uint8Array(photo.bytes)], { type: photo.type ?? 'image/png' }),
      photo.name ?? 'me.png',
    );
  }
  return data;
}
const putForm = (token: string, data: FormData) => t.call('PUT', '/api/users/me', { raw: data, token });

describe('PUT /api/users/me (JSON)', () => {
  it('changes the name, phone, address and bio and answers with the user', async () => {
    const { user, token } = await signedIn();
    const res = await put(token, {
      name: '  Ayşe Kaya ',
      phone: '0532 111 22 33',
      address: 'İzmir',
      bio: 'Görev avcısı',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: user._id,
      name: 'Ayşe Kaya',
      email: user.email,
      phone: '0532 111 22 33',
      address: 'İzmir',
      bio: 'Görev avcısı',
      profileImage: null,
      balance: 0,
    });
    expect(res.body.data).not.toHaveProperty('password_hash');
    expect(await row(user._id)).toMatchObject({
      name: 'Ayşe Kaya',
      phone: '0532 111 22 33',
      address: 'İzmir',
      bio: 'Görev avcısı',
    });
  });

  it('keeps absent fields and clears blank or null ones', async () => {
    const { user, token } = await signedIn();
    await put(token, { name: 'Ayşe', phone: '', address: null });
    expect(await row(user._id)).toMatchObject({ phone: null, address: null, bio: 'Merhaba' });
  });

  it('lets a suspended user edit their profile', async () => {
    const { token } = await signedIn({ status: 'suspended' });
    expect((await put(token, { name: 'Yeni' })).status).toBe(200);
  });

  it('ignores every field it does not name (role, status, balance, email...)', async () => {
    const { user, token } = await signedIn();
    const res = await put(token, {
      name: 'Ayşe',
      role: 'admin',
      status: 'active',
      banReason: 'x',
      balance: 1_000_000,
      total_earned: 5,
      totalEarnings: 5,
      email: 'other@example.test',
      _id: 'other',
      profileImage: 'http://evil.example/x.png',
      profile_image: '/api/files/images/x.png',
      password_hash: 'x',
    });
    expect(res.status).toBe(200);
    const after = await row(user._id);
    expect(after).toMatchObject({
      role: 'user',
      status: 'active',
      balance: 0,
      total_earned: 0,
      email: user.email,
      profile_image: null,
      password_hash: user.password_hash,
      ban_reason: null,
    });
  });

  it('keeps the password when the field is blank, and changes it when given', async () => {
    const { user, token } = await signedIn();
    await put(token, { name: 'Ayşe', password: '' });
    expect((await row(user._id)).password_hash).toBe(user.password_hash);
    expect(
      (await put(token, { name: 'Ayşe', password: 'yeni-sifre', currentPassword: TEST_PASSWORD })).status,
    ).toBe(200);
    expect((await row(user._id)).password_hash).not.toBe(user.password_hash);
    const login = (password: string) =>
      t.call('POST', '/api/auth/login', { body: { email: user.email, password } });
    expect((await login('yeni-sifre')).status).toBe(200);
    expect((await login(TEST_PASSWORD)).status).toBe(401);
  });

  it.each<[string, unknown, string, string]>([
    ['no name', { phone: '1' }, 'name', FIELD_MESSAGES.nameRequired],
    ['a blank name', { name: '   ' }, 'name', FIELD_MESSAGES.nameRequired],
    ['a name that is not text', { name: 42 }, 'name', FIELD_MESSAGES.nameRequired],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name', FIELD_MESSAGES.tooLong],
    [
      'a password under 6 characters',
      { name: 'A', password: '12345' },
      'password',
      FIELD_MESSAGES.passwordTooShort,
    ],
    ['a password that is not text', { name: 'A', password: 123456 }, 'password', FIELD_MESSAGES.invalidValue],
    ['a phone with letters', { name: 'A', phone: 'call me' }, 'phone', FIELD_MESSAGES.invalidValue],
    ['a phone over 30 characters', { name: 'A', phone: '1'.repeat(31) }, 'phone', FIELD_MESSAGES.tooLong],
    [
      'an address over 200 characters',
      { name: 'A', address: 'x'.repeat(201) },
      'address',
      FIELD_MESSAGES.tooLong,
    ],
    ['a bio over 500 characters', { name: 'A', bio: 'x'.repeat(501) }, 'bio', FIELD_MESSAGES.tooLong],
    ['a bio that is an object', { name: 'A', bio: { text: 'x' } }, 'bio', FIELD_MESSAGES.invalidValue],
  ])('refuses %s with 422 and changes nothing', async (_name, body, field, message) => {
    const { user, token } = await signedIn();
    const res = await put(token, body);
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
    expect(res.body.error.errors[field]).toBe(message);
    const after = await row(user._id);
    expect([after.name, after.bio, after.password_hash]).toEqual(['Ayşe', 'Merhaba', user.password_hash]);
  });

  it.each<[string, () => Promise<string | undefined>, number, string]>([
    ['a visitor', async () => undefined, 401, 'unauthorized'],
    ['a banned user', async () => (await signedIn({ status: 'banned' })).token, 403, 'banned'],
  ])('refuses %s', async (_who, token, status, code) => {
    const res = await put(await token(), { name: 'X' });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
  });

  it.each<[string, string, Record<string, string>, number, string]>([
    ['a body that is not JSON', '{"name":', {}, 400, 'malformed_json'],
    ['a JSON array', '[]', {}, 400, 'malformed_json'],
    ['a body declared as text', 'name=A', { 'Content-Type': 'text/plain' }, 415, 'unsupported_media_type'],
  ])('refuses %s', async (_name, body, headers, status, code) => {
    const { token } = await signedIn();
    const res = await put(token, body, headers);
    expect([res.status, res.body.error.code]).toEqual([status, code]);
  });
});

describe('PUT /api/users/me (multipart with a photo)', () => {
  it('stores a re-encoded copy and answers with its public URL', async () => {
    const { user, token } = await signedIn();
    const res = await putForm(
      token,
      form({ name: 'Ayşe Foto', bio: 'yeni' }, { bytes: pngFile(8, 6, { text: 'GPS 41.0 29.0' }) }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Ayşe Foto', bio: 'yeni' });
    expect(res.body.data.profileImage).toMatch(/^\/api\/files\/images\/[0-9a-f]{32}\.png$/);
    expect((await row(user._id)).profile_image).toBe(res.body.data.profileImage);
    const image = await t.app.request(res.body.data.profileImage);
    expect([image.status, image.headers.get('Content-Type')]).toEqual([200, 'image/png']);
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect(contains(bytes, 'GPS 41.0')).toBe(false);
    expect(await store().listTemp()).toEqual([]);
  });

  it('takes a JPEG and removes the photo it replaces', async () => {
    const { token } = await signedIn();
    const first = await putForm(token, form({ name: 'A' }, { bytes: pngFile() }));
    const second = await putForm(
      token,
      form({ name: 'A' }, { bytes: jpegFile(), name: 'me.jpg', type: 'image/jpeg' }),
    );
    expect(second.body.data.profileImage).toMatch(/\.jpg$/);
    const names = await store().list('images');
    expect(names).toContain(second.body.data.profileImage.split('/').at(-1));
    expect(names).not.toContain(first.body.data.profileImage.split('/').at(-1));
  });

  it('changes the text fields and keeps the photo when no file is sent', async () => {
    const { user, token } = await signedIn({
      profile_image: '/api/files/images/0123456789abcdef0123456789abcdef.png',
    });
    const res = await putForm(token, form({ name: 'Sadece İsim', password: '' }));
    expect(res.status).toBe(200);
    expect(await row(user._id)).toMatchObject({
      name: 'Sadece İsim',
      profile_image: user.profile_image,
      password_hash: user.password_hash,
    });
  });

  async function expectRefused(bytes: Buffer, status: number, code: string) {
    const { user, token } = await signedIn();
    const before = await store().list('images');
    const res = await putForm(token, form({ name: 'Değişmemeli' }, { bytes }));
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect((await row(user._id)).name).toBe('Ayşe');
    expect(await store().list('images')).toEqual(before);
    expect(await store().listTemp()).toEqual([]);
  }

  it('refuses a PNG header over garbage and changes nothing', async () => {
    await expectRefused(
      Buffer.concat([pngFile().subarray(0, 33), Buffer.alloc(200, 7)]),
      422,
      'image_unreadable',
    );
  });

  it.each<[string, Buffer, number, string]>([
    ['a GIF', GIF_FILE, 415, 'file_type'],
    ['an SVG with a script', SVG_FILE, 415, 'file_type'],
    ['a file over 5 MB', pngFile(8, 6, { padTo: 5_242_881 }), 413, 'file_too_large'],
  ])('refuses %s while it streams and changes nothing', async (_name, bytes, status, code) => {
    await expectRefused(bytes, status, code);
  });

  it('names the field when the photo comes under another name, and changes nothing', async () => {
    const { user, token } = await signedIn();
    const before = await store().list('images');
    const data = form({ name: 'Değişmemeli' });
    data.append('photo', new Blob([new Uint8Array(pngFile())], { type: 'image/png' }), 'me.png');
    const res = await putForm(token, data);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'image_field',
      message: "Send the image in the field 'profileImage'",
      field: 'profileImage',
      errors: { profileImage: "Send the image in the field 'profileImage'" },
    });
    expect((await row(user._id)).name).toBe('Ayşe');
    expect(await store().list('images')).toEqual(before);
    expect(await store().listTemp()).toEqual([]);
  });

  it('saves the text fields when an empty file part comes under another name', async () => {
    const { user, token } = await signedIn();
    const data = form({ name: 'Yeni Ad' });
    data.append('photo', new Blob([]), '');
    const res = await putForm(token, data);
    expect(res.status).toBe(200);
    expect((await row(user._id)).name).toBe('Yeni Ad');
  });

  it('accepts a file of exactly 5 MB', async () => {
    const { token } = await signedIn();
    const res = await putForm(token, form({ name: 'A' }, { bytes: pngFile(8, 6, { padTo: 5_242_880 }) }));
    expect(res.status).toBe(200);
  });

  it('checks the text fields before storing the photo', async () => {
    const { token } = await signedIn();
    const before = await store().list('images');
    const res = await putForm(token, form({ name: ' ' }, { bytes: pngFile() }));
    expect([res.status, res.body.error.errors.name]).toEqual([422, FIELD_MESSAGES.nameRequired]);
    expect(await store().list('images')).toEqual(before);
  });
});

describe('GET /api/users/me/completed-tasks', () => {
  it('lists only the approved submissions, newest approval first, with their task', async () => {
    const { user, token } = await signedIn();
    const adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
    const review = (id: string, body: unknown) =>
      t.call('PUT', `/api/submissions/${id}/review`, { body, token: adminToken });
    const a = await makePendingSubmission(t.deps.db, user._id, { reward: 1000 });
    const b = await makePendingSubmission(t.deps.db, user._id, { reward: 250 });
    const c = await makePendingSubmission(t.deps.db, user._id, { reward: 700 });
    await makePendingSubmission(t.deps.db, user._id, { reward: 300 });
    const other = await makePendingSubmission(t.deps.db, (await makeUser(t.deps.db))._id);
    await review(a.submissionId, { status: 'approved', feedback: 'ok' });
    await new Promise((r) => setTimeout(r, 5));
    await review(b.submissionId, { status: 'approved', feedback: 'ok' });
    await review(c.submissionId, { status: 'rejected', feedback: 'no', rejectionReason: 'no_share' });
    await review(other.submissionId, { status: 'approved', feedback: 'ok' });
    const res = await t.call('GET', '/api/users/me/completed-tasks', { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        _id: b.submissionId,
        task: { _id: b.taskId, title: expect.any(String), reward: 2.5 },
        reward: 2.5,
        approvedAt: expect.any(String),
      },
      {
        _id: a.submissionId,
        task: { _id: a.taskId, title: expect.any(String), reward: 10 },
        reward: 10,
        approvedAt: expect.any(String),
      },
    ]);
  });

  it('is an empty list for a new user and refuses a visitor', async () => {
    const { token } = await signedIn();
    expect((await t.call('GET', '/api/users/me/completed-tasks', { token })).body.data).toEqual([]);
    expect((await t.call('GET', '/api/users/me/completed-tasks')).status).toBe(401);
  });
});
