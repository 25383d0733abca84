import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LEGAL_DOCUMENTS, MAX_LEGAL_TEXT_LENGTH } from '../../contract/legal';
import { makeUser } from '../../testing/factories';
import { burst } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let adminToken: string;
let otherAdminToken: string;
let userToken: string;
beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  otherAdminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  userToken = await t.tokenFor(await makeUser(t.deps.db));
});
afterAll(() => t.dispose());
beforeEach(async () => {
  await t.deps.db.deleteFrom('settings').execute();
});

const read = (document: string) => t.call('GET', `/api/settings/legal/${document}`);
const save = (document: string, body: unknown, token: string | undefined = adminToken) =>
  t.call('PUT', `/api/settings/legal/${document}`, { body, token });
const auditRows = () =>
  t.deps.db
    .selectFrom('audit_log')
    .select(['action', 'changes'])
    .where('action', '=', 'settings.legal')
    .execute();

describe('GET /api/settings/legal/{document}', () => {
  it.each(LEGAL_DOCUMENTS)(
    'serves the %s template in both languages, marked as one, to anyone',
    async (doc) => {
      const res = await read(doc);
      expect(res.status).toBe(200);
      const data = res.body.data;
      expect(data).toMatchObject({ document: doc, template: { tr: true, en: true }, updatedAt: null });
      expect(data.tr).toMatch(/^# ŞABLON/);
      expect(data.en).toMatch(/^# TEMPLATE/);
      // the site's own name and contact address are filled in, no placeholder is left
      expect(data.en).toContain('TaskReward');
      expect(data.tr).toContain('destek@taskreward.app');
      expect(`${data.tr}${data.en}`).not.toMatch(/\{(site|email|address)\}/);
    },
  );

  it('fills the template with the settings as they are now', async () => {
    await t.call('PUT', '/api/settings', {
      token: adminToken,
      body: { site: { name: 'Görev Pazarı' }, contact: { email: 'kvkk@example.test' } },
    });
    const { data } = (await read('kvkk')).body;
    expect(data.tr).toContain('Görev Pazarı');
    expect(data.en).toContain('kvkk@example.test');
  });

  it.each(['cookies', 'TERMS', 'terms.tr', 'privacy.json', '%00'])('answers 404 for %s', async (name) => {
    const res = await read(name);
    expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
  });
});

describe('PUT /api/settings/legal/{document}', () => {
  it('saves one language, keeps the other on its template, and says so', async () => {
    const res = await save('terms', { tr: '  # Koşullar\r\n\r\nMetin.  ' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      tr: '# Koşullar\n\nMetin.',
      template: { tr: false, en: true },
      updatedAt: expect.any(String),
    });
    expect(res.body.data.en).toMatch(/^# TEMPLATE/);
    expect((await read('terms')).body.data).toEqual(res.body.data);
    // the other documents are untouched
    expect((await read('privacy')).body.data.template).toEqual({ tr: true, en: true });
  });

  it('keeps text as text: markup is stored as typed, for the page to show as characters', async () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)> [a](javascript:alert(3))';
    const res = await save('privacy', { en: hostile });
    expect(res.body.data.en).toBe(hostile);
  });

  it('returns a language to the template when its text is emptied', async () => {
    await save('kvkk', { tr: 'Bir', en: 'One' });
    const res = await save('kvkk', { tr: '   ' });
    expect(res.body.data.template).toEqual({ tr: true, en: false });
    expect(res.body.data.en).toBe('One');
    await save('kvkk', { en: '' });
    expect((await read('kvkk')).body.data).toMatchObject({
      template: { tr: true, en: true },
      updatedAt: null,
    });
  });

  it('records who changed which language, with the lengths rather than the texts', async () => {
    const before = (await auditRows()).length;
    await save('terms', { tr: 'Bir metin', en: 'A text' });
    await save('terms', { tr: 'Bir metin' }); // unchanged: no entry
    const rows = (await auditRows()).slice(before);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.changes)).toEqual({ 'terms.tr': [0, 9], 'terms.en': [0, 6] });
  });

  it(`takes ${MAX_LEGAL_TEXT_LENGTH} characters and refuses one more, storing nothing`, async () => {
    const longest = 'ş'.repeat(MAX_LEGAL_TEXT_LENGTH);
    expect((await save('terms', { tr: longest })).status).toBe(200);
    const res = await save('terms', { tr: 'x', en: 'a'.repeat(MAX_LEGAL_TEXT_LENGTH + 1) });
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
    expect(res.body.error.errors).toHaveProperty('en');
    expect((await read('terms')).body.data).toMatchObject({ tr: longest, template: { en: true } });
  });

  it.each<[string, unknown]>([
    ['an empty body', {}],
    ['an unknown field', { tr: 'a', html: '<b>' }],
    ['a field for another document', { tr: 'a', document: 'privacy' }],
    ['a number', { tr: 5 }],
    ['an array', ['tr']],
    ['null', null],
    ['the flags of the reply', { tr: 'a', template: { tr: true }, updatedAt: '2000-01-01' }],
  ])('refuses %s with a 4xx in the contract shape, storing nothing', async (_label, body) => {
    const res = await save('terms', body);
    expect([400, 422]).toContain(res.status);
    expect(typeof res.body.error.code).toBe('string');
    expect((await read('terms')).body.data.template).toEqual({ tr: true, en: true });
  });

  it('is for admins only', async () => {
    expect((await t.call('PUT', '/api/settings/legal/terms', { body: { tr: 'x' } })).status).toBe(401);
    const res = await save('terms', { tr: 'x' }, userToken);
    expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
    expect((await read('terms')).body.data.template.tr).toBe(true);
  });

  it('answers 404 for an unknown document, even with a valid body', async () => {
    expect((await save('cookies', { tr: 'x' })).status).toBe(404);
    const keys = await t.deps.db.selectFrom('settings').select('key').execute();
    expect(keys).toEqual([]);
  });

  it('stays out of GET /api/settings, which is unchanged by a long legal text', async () => {
    const before = (await t.call('GET', '/api/settings')).body;
    await save('privacy', { tr: 'x'.repeat(20_000), en: 'y'.repeat(20_000) });
    const after = (await t.call('GET', '/api/settings')).body;
    expect(after).toEqual(before);
    expect(JSON.stringify(after)).not.toContain('xxxxxxxx');
  });

  it('keeps both admins’ saves when they arrive at once (one per language), and answers a flood of reads', async () => {
    const before = (await auditRows()).length;
    const replies = await burst(24, (i) =>
      i === 0
        ? save('terms', { tr: 'Türkçe metin' }, adminToken)
        : i === 1
          ? save('terms', { en: 'English text' }, otherAdminToken)
          : read('terms'),
    );
    for (const r of replies) expect([200, 429]).toContain(r.status);
    expect(replies[0]!.status).toBe(200);
    expect(replies[1]!.status).toBe(200);
    expect((await read('terms')).body.data).toMatchObject({
      tr: 'Türkçe metin',
      en: 'English text',
      template: { tr: false, en: false },
    });
    expect(await auditRows()).toHaveLength(before + 2);
  });
});
