import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../contract/settings-defaults';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { writeSection } from './settings.repository';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.dispose();
});
beforeEach(async () => {
  await t.deps.db.deleteFrom('settings').execute();
});

const getSettings = (headers: Record<string, string> = {}) => t.call('GET', '/api/settings', { headers });
const store = (key: string, value: unknown) => writeSection(t.deps.db, key, value, new Date().toISOString());

describe('GET /api/settings', () => {
  it('returns the defaults when nothing is stored: minimum payout 20 and both payment methods', async () => {
    const res = await getSettings();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: DEFAULT_SETTINGS });
    expect(res.body.data.payment).toEqual({
      minimumPayout: 20,
      methods: ['papara', 'iban'],
      requireVerifiedEmail: false,
    });
    expect(res.body.data.site.name).toBe('TaskReward');
  });

  it.each([
    ['a visitor without a token', {}],
    ['a visitor with a garbage token', { Authorization: 'Bearer nonsense' }],
  ])('is public: %s gets it', async (_label, headers) => {
    const res = await getSettings(headers);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it('lays stored values over the defaults, field by field', async () => {
    await store('payment', { minimumPayout: 50 });
    await store('site', { name: 'Görev Pazarı', description: { tr: 'Açıklama' } });
    const res = await getSettings();
    expect(res.body.data.payment).toEqual({
      minimumPayout: 50,
      methods: ['papara', 'iban'],
      requireVerifiedEmail: false,
    });
    expect(res.body.data.site).toEqual({
      ...DEFAULT_SETTINGS.site,
      name: 'Görev Pazarı',
      description: { tr: 'Açıklama', en: DEFAULT_SETTINGS.site.description.en },
    });
    expect(res.body.data.contact).toEqual(DEFAULT_SETTINGS.contact);
  });

  it('keeps a stored method list and logo', async () => {
    await store('payment', { methods: ['iban'] });
    await store('site', { logo: '/files/logo.png' });
    const res = await getSettings();
    expect(res.body.data.payment.methods).toEqual(['iban']);
    expect(res.body.data.site.logo).toBe('/files/logo.png');
  });

  it.each([
    ['a string minimum payout', 'payment', { minimumPayout: '50' }, ['payment', 'minimumPayout']],
    ['methods given as an object', 'payment', { methods: { 0: 'papara' } }, ['payment', 'methods']],
    ['methods given as a string', 'payment', { methods: 'papara' }, ['payment', 'methods']],
    ['a numeric site name', 'site', { name: 42 }, ['site', 'name']],
    ['a logo given as an object', 'site', { logo: { src: 'x' } }, ['site', 'logo']],
    ['a logo given as a number', 'site', { logo: 7 }, ['site', 'logo']],
    ['a description given as a string', 'site', { description: 'x' }, ['site', 'description']],
    ['a contact section that is an array', 'contact', ['a'], ['contact']],
  ])('ignores %s stored by mistake and serves the default', async (_label, key, value, path) => {
    await store(key, value);
    const res = await getSettings();
    expect(res.status).toBe(200);
    let served: unknown = res.body.data;
    let expected: unknown = DEFAULT_SETTINGS;
    for (const part of path) {
      served = (served as Record<string, unknown>)[part];
      expected = (expected as Record<string, unknown>)[part];
    }
    expect(served).toEqual(expected);
  });

  it('serves the defaults when a stored row is not JSON', async () => {
    await t.deps.db
      .insertInto('settings')
      .values({ key: 'payment', value: '{not json', updated_at: new Date().toISOString() })
      .execute();
    const res = await getSettings();
    expect(res.status).toBe(200);
    expect(res.body.data.payment).toEqual(DEFAULT_SETTINGS.payment);
  });
});
