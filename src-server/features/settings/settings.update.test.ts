import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../contract/settings-defaults';
import { FILE_CSP } from '../../http/security';
import { icoFile, jpegFile, pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { fund } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { multipart } from '../submissions/submission-test-helpers';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
});
afterAll(() => t.dispose());
beforeEach(async () => {
  await t.deps.db.deleteFrom('settings').execute();
});

const put = (body: unknown, token: string | undefined = adminToken) =>
  t.call('PUT', '/api/settings', { body, token });
const upload = (
  which: 'logo' | 'favicon',
  file: Uint8Array | null,
  options: { field?: string; filename?: string; token?: string } = {},
) => {
  const { body, contentType } = multipart(
    file
      ? [
          {
            name: options.field ?? which,
            filename: options.filename ?? 'image.png',
            type: 'image/png',
            data: file,
          },
        ]
      : [{ name: 'other', value: 'x' }],
  );
  return t.call('PUT', `/api/settings/${which}`, {
    token: options.token ?? adminToken,
    raw: body,
    headers: { 'Content-Type': contentType },
  });
};
const images = () => t.deps.files.list('images');

describe('PUT /api/settings', () => {
  it('merges the fields sent into what is stored and answers the whole settings', async () => {
    await put({ site: { name: 'Görev Pazarı', description: { tr: 'Eski' } } });
    const res = await put({
      site: { description: { en: 'New English text' } },
      contact: { email: ' Destek@Ornek.TEST ', phone: '+90 212 000 00 00' },
      socialMedia: { twitter: '', instagram: 'https://instagram.com/gorev' },
      payment: { minimumPayout: 25 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        site: {
          name: 'Görev Pazarı',
          description: { tr: 'Eski', en: 'New English text' },
          logo: null,
          favicon: null,
        },
        contact: { ...DEFAULT_SETTINGS.contact, email: 'destek@ornek.test', phone: '+90 212 000 00 00' },
        socialMedia: {
          ...DEFAULT_SETTINGS.socialMedia,
          twitter: '',
          instagram: 'https://instagram.com/gorev',
        },
        payment: { minimumPayout: 25, methods: ['papara', 'iban'], requireVerifiedEmail: false },
        review: { autoApproveDays: 0 },
        security: { requireAdminTwoFactor: false },
      },
    });
    expect((await t.call('GET', '/api/settings')).body.data).toEqual(res.body.data);
  });

  it('keeps the methods offered as a set in a fixed order', async () => {
    const res = await put({ payment: { methods: ['iban', 'papara', 'iban'] } });
    expect(res.body.data.payment.methods).toEqual(['papara', 'iban']);
    expect((await put({ payment: { methods: ['iban'] } })).body.data.payment.methods).toEqual(['iban']);
  });

  it('accepts an empty body as no change', async () => {
    const res = await put({});
    expect([res.status, res.body.data]).toEqual([200, DEFAULT_SETTINGS]);
  });

  it('applies a new minimum payout to withdrawal requests at once', async () => {
    await put({ payment: { minimumPayout: 50 } });
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 10_000);
    const res = await t.call('POST', '/api/withdraws', {
      token: await t.tokenFor(user),
      body: {
        amount: 30,
        paymentMethod: 'papara',
        accountDetails: { fullName: 'A B', accountNumber: '1234567890' },
      },
    });
    expect([res.status, res.body.error.code]).toEqual([422, 'below_minimum']);
    expect(res.body.error.message).toBe('The minimum payout amount is ₺50.00');
  });

  it.each<[string, unknown, string]>([
    ['a blank site name', { site: { name: '  ' } }, 'site.name'],
    ['a negative minimum payout', { payment: { minimumPayout: -5 } }, 'payment.minimumPayout'],
    ['a minimum payout finer than a kuruş', { payment: { minimumPayout: 10.005 } }, 'payment.minimumPayout'],
    ['a minimum payout given as text', { payment: { minimumPayout: '20' } }, 'payment.minimumPayout'],
    ['a minimum payout off the step of 5', { payment: { minimumPayout: 22 } }, 'payment.minimumPayout'],
    ['no payment method', { payment: { methods: [] } }, 'payment.methods'],
    ['an unknown payment method', { payment: { methods: ['cash'] } }, 'payment.methods.0'],
    [
      'a social link that is not http(s)',
      { socialMedia: { facebook: 'javascript:alert(1)' } },
      'socialMedia.facebook',
    ],
    ['an ftp social link', { socialMedia: { linkedin: 'ftp://x.test' } }, 'socialMedia.linkedin'],
    ['a malformed contact email', { contact: { email: 'destek' } }, 'contact.email'],
    ['letters in the phone', { contact: { phone: 'call me' } }, 'contact.phone'],
    ['a description given as text', { site: { description: 'x' } }, 'site.description'],
    ['a site name of 101 characters', { site: { name: 'x'.repeat(101) } }, 'site.name'],
    ['a logo pointing anywhere', { site: { logo: 'https://evil.test/x.png' } }, 'site.logo'],
    [
      'a logo pointing at another stored image',
      { site: { logo: `/api/files/images/${'a'.repeat(32)}.png` } },
      'site.logo',
    ],
    ['an unknown section', { theme: { color: 'red' } }, '_'],
    ['an unknown field', { payment: { currency: 'USD' } }, 'payment'],
  ])('refuses %s with a 422 and stores nothing', async (_label, body, field) => {
    const res = await put(body);
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
    expect(Object.keys(res.body.error.errors)).toContain(field);
    expect(await t.deps.db.selectFrom('settings').selectAll().execute()).toEqual([]);
  });

  it.each([
    ['a visitor', undefined, 401, 'unauthorized'],
    ['a user', 'user', 403, 'forbidden'],
  ])('refuses %s', async (_label, who, status, code) => {
    const token = who ? await t.tokenFor(await makeUser(t.deps.db)) : undefined;
    const res = await t.call('PUT', '/api/settings', { body: { site: { name: 'Hacked' } }, token });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect((await t.call('GET', '/api/settings')).body.data.site.name).toBe('TaskReward');
  });
});

describe('PUT /api/settings/logo and /favicon', () => {
  it('stores a re-encoded PNG logo as a public image and sets site.logo to its URL', async () => {
    const res = await upload('logo', pngFile(20, 10, { text: 'hidden metadata' }));
    expect(res.status).toBe(200);
    const url: string = res.body.data.site.logo;
    expect(url).toMatch(/^\/api\/files\/images\/[0-9a-f]{32}\.png$/);
    expect(res.body.data.site.name).toBe('TaskReward');
    const file = await t.app.request(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('Content-Type')).toBe('image/png');
    expect(file.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('Content-Security-Policy')).toBe(FILE_CSP);
    expect(Buffer.from(await file.arrayBuffer()).includes('hidden metadata')).toBe(false);
  });

  it('replaces the old logo file with the new one', async () => {
    const first = (await upload('logo', pngFile())).body.data.site.logo as string;
    const second = (await upload('logo', jpegFile())).body.data.site.logo as string;
    expect(second).toMatch(/\.jpg$/);
    const stored = await images();
    expect(stored).toContain(second.split('/').pop());
    expect(stored).not.toContain(first.split('/').pop());
  });

  it('takes an ICO favicon and serves it as image/x-icon', async () => {
    const res = await upload('favicon', icoFile(), { filename: 'favicon.ico' });
    expect(res.status).toBe(200);
    expect(res.body.data.site.favicon).toMatch(/^\/api\/files\/images\/[0-9a-f]{32}\.ico$/);
    const file = await t.app.request(res.body.data.site.favicon);
    expect(file.headers.get('Content-Type')).toBe('image/x-icon');
  });

  it('lets PUT /api/settings keep the logo as it is or remove it (and its file)', async () => {
    const url = (await upload('logo', pngFile())).body.data.site.logo as string;
    expect((await put({ site: { name: 'Yeni', logo: url } })).body.data.site).toMatchObject({
      name: 'Yeni',
      logo: url,
    });
    const removed = await put({ site: { logo: null } });
    expect(removed.body.data.site.logo).toBeNull();
    expect(await images()).not.toContain(url.split('/').pop());
  });

  it.each<[string, 'logo' | 'favicon', () => Uint8Array | null, { field?: string }, number, string]>([
    ['an ICO as a logo', 'logo', icoFile, {}, 415, 'file_type'],
    ['a text file', 'favicon', () => Buffer.from('GIF89a not an image at all'), {}, 415, 'file_type'],
    ['a file over 5 MB', 'logo', () => pngFile(8, 6, { padTo: 5_242_881 }), {}, 413, 'file_too_large'],
    [
      'a PNG whose data is damaged',
      'logo',
      () => Buffer.concat([pngFile().subarray(0, 40), Buffer.alloc(40)]),
      {},
      422,
      'image_unreadable',
    ],
    ['no file part', 'logo', () => null, {}, 422, 'image_required'],
    ['the file under another field name', 'favicon', pngFile, { field: 'logo' }, 422, 'image_field'],
  ])('refuses %s', async (_label, which, file, options, status, code) => {
    const before = await images();
    const res = await upload(which, file(), options);
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(await images()).toEqual(before);
    expect(await t.deps.files.listTemp()).toEqual([]);
  });

  it.each<['logo' | 'favicon', string]>([
    ['logo', 'file'],
    ['favicon', 'image'],
  ])('names the field when the %s comes under the field %s', async (which, field) => {
    const res = await upload(which, pngFile(), { field });
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({
      code: 'image_field',
      message: `Send the image in the field '${which}'`,
      field: which,
      errors: { [which]: `Send the image in the field '${which}'` },
    });
    expect(await t.deps.files.listTemp()).toEqual([]);
  });

  it('asks for an image when the form carries none', async () => {
    const res = await upload('logo', null);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'image_required',
      message: 'Please choose an image to upload',
      errors: { logo: 'Please choose an image to upload' },
    });
  });

  it('refuses a JSON body with a 415', async () => {
    const res = await t.call('PUT', '/api/settings/logo', { token: adminToken, body: { logo: 'x' } });
    expect([res.status, res.body.error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('refuses a user with a 403 before reading the file', async () => {
    const res = await upload('logo', pngFile(), { token: await t.tokenFor(await makeUser(t.deps.db)) });
    expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
  });
});
