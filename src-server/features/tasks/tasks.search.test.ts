import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createTask, patchTask } from './task-test-helpers';

// Search that understands Turkish: İ/i and I/ı, with or without accents, over the
// title and the description (and the category's names), title matches first.
let t: TestApp;
let adminToken: string;
const ids: Record<string, string> = {};

const search = async (q: string, extra = '', token?: string) => {
  const res = await t.call('GET', `/api/tasks?q=${encodeURIComponent(q)}${extra}`, { token });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data as { items: { _id: string; title: string }[]; total: number };
};
const titles = (data: { items: { title: string }[] }) => data.items.map((i) => i.title);

beforeAll(async () => {
  t = await createTestApp();
  adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
  const specs: [string, Record<string, unknown>][] = [
    ['Çekiliş', { title: 'Büyük Çekiliş', description: 'Katılın', category: 'other' }],
    ['cekilis-lower', { title: 'Yılbaşı çekilişi', description: 'Hediye', category: 'other' }],
    ['Instagram', { title: 'instagram hesabını takip et', description: 'Takip', category: 'other' }],
    ['Işık', { title: 'Işık Mağazası', description: 'ışık ve gölge', category: 'other' }],
    ['Isik-upper', { title: 'IŞIK FESTİVALİ', description: 'Bilet', category: 'other' }],
    ['in-description', { title: 'Yorum yaz', description: 'Uygulamaya ŞİRİN bir yorum', category: 'other' }],
    ['Şirin-title', { title: 'Şirin kedi videosu', description: 'İzle', category: 'other' }],
    ['survey', { title: 'Soru formu', description: 'Doldur', category: 'survey' }],
    ['circumflex', { title: 'Kâr payı hesapla', description: 'Hesap', category: 'other' }],
  ];
  for (const [key, body] of specs) ids[key] = await createTask(t, adminToken, body);
});
afterAll(() => t.dispose());

describe('GET /api/tasks?q= folds Turkish', () => {
  it.each([
    [
      '"cekilis" finds "Çekiliş" and "çekilişi" (accents optional)',
      'cekilis',
      ['Büyük Çekiliş', 'Yılbaşı çekilişi'],
    ],
    ['"ÇEKİLİŞ" finds "çekilişi" and "Çekiliş"', 'ÇEKİLİŞ', ['Büyük Çekiliş', 'Yılbaşı çekilişi']],
    ['"İnstagram" finds "instagram"', 'İnstagram', ['instagram hesabını takip et']],
    ['"INSTAGRAM" finds "instagram" (I is i)', 'INSTAGRAM', ['instagram hesabını takip et']],
    ['"IŞIK" finds "Işık" and "IŞIK"', 'IŞIK', ['Işık Mağazası', 'IŞIK FESTİVALİ']],
    ['"ışık" finds "IŞIK" and "Işık"', 'ışık', ['Işık Mağazası', 'IŞIK FESTİVALİ']],
    ['"isik" finds both (no accents at all)', 'isik', ['Işık Mağazası', 'IŞIK FESTİVALİ']],
    ['"festivali" finds "FESTİVALİ" (dotted capital İ)', 'festivali', ['IŞIK FESTİVALİ']],
    ['"kar payi" finds "Kâr payı" (circumflex)', 'kar payi', ['Kâr payı hesapla']],
    [
      'two letters, "IŞ" (matched without the trigram index)',
      'IŞ',
      ['Büyük Çekiliş', 'Yılbaşı çekilişi', 'Işık Mağazası', 'IŞIK FESTİVALİ'],
    ],
  ])('%s', async (_name, q, expected) => {
    expect(titles(await search(q)).sort()).toEqual([...expected].sort());
  });

  it('searches the description too, folded ("sirin" finds "ŞİRİN" in a description)', async () => {
    const data = await search('sirin');
    expect(data.items.map((i) => i._id).sort()).toEqual([ids['in-description'], ids['Şirin-title']].sort());
  });

  it('ranks title matches first, before featured tasks that match only in their description', async () => {
    await t.call('PUT', `/api/tasks/${ids['in-description']}/feature`, {
      token: adminToken,
      body: { isFeatured: true },
    });
    const data = await search('ŞİRİN');
    expect(titles(data)).toEqual(['Şirin kedi videosu', 'Yorum yaz']);
    // without a search the featured task is pinned first as before
    expect(titles(await search('', '&category=other'))[0]).toBe('Yorum yaz');
  });

  it('finds a category by its Turkish and English names ("anket" and "survey")', async () => {
    expect(titles(await search('anket'))).toEqual(['Soru formu']);
    expect(titles(await search('SURVEY'))).toEqual(['Soru formu']);
  });

  it('finds the same within a category, folded the same way (I/ı/İ/i, accents, prefixes)', async () => {
    // a search narrowed to a category reads that category's folded text instead of the
    // full-text index: every spelling must still find the same tasks, in the same order
    for (const q of [
      'IŞIK',
      'ışık',
      'isik',
      'İnstagram',
      'INSTAGRAM',
      'ÇEKİLİŞ',
      'cek',
      'IŞ',
      'kar payi',
      'ŞİRİN',
    ]) {
      const everywhere = (await search(q)).items.map((i) => i._id);
      const inOther = await search(q, '&category=other');
      expect(
        inOther.items.map((i) => i._id),
        q,
      ).toEqual(everywhere);
      expect(inOther.total, q).toBe(everywhere.length);
    }
    expect(titles(await search('ŞİRİN', '&category=other'))).toEqual(['Şirin kedi videosu', 'Yorum yaz']);
    expect(titles(await search('ANKET', '&category=survey'))).toEqual(['Soru formu']);
    expect((await search('anket', '&category=other')).total).toBe(0);
    expect((await search('kedi OR video', '&category=other')).total).toBe(0);
  });

  it('counts the matches, folded the same way', async () => {
    expect((await search('ÇEKİLİŞ')).total).toBe(2);
    expect((await search('çekiliş', '&limit=1')).total).toBe(2);
  });

  it('follows an edit of the title, description or category at once', async () => {
    const id = await createTask(t, adminToken, {
      title: 'Eski başlık',
      description: 'Eski',
      category: 'other',
    });
    expect(titles(await search('eski baslik'))).toEqual(['Eski başlık']);
    await t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { title: 'Yeni ÖDÜL' } });
    expect((await search('eski baslik')).total).toBe(0);
    expect(titles(await search('yeni odul'))).toEqual(['Yeni ÖDÜL']);
    // the category alone changes: its names follow, the description stays searchable
    await t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { category: 'giveaway' } });
    expect(titles(await search('eski', '&category=giveaway'))).toEqual(['Yeni ÖDÜL']);
    expect(titles(await search('giveaway'))).toEqual(['Yeni ÖDÜL']);
    await t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { description: 'Güncel METİN' } });
    expect(titles(await search('guncel metin'))).toEqual(['Yeni ÖDÜL']);
    expect(titles(await search('giveaway'))).toEqual(['Yeni ÖDÜL']);
    expect((await search('eski')).total).toBe(0);
  });

  it('never shows a deleted task, though it stays in the search index', async () => {
    const id = await createTask(t, adminToken, { title: 'Silinecek görev', category: 'other' });
    expect((await search('silinecek')).total).toBe(1);
    await t.call('DELETE', `/api/tasks/${id}`, { token: adminToken });
    expect((await search('silinecek')).total).toBe(0);
  });

  it.each([
    ['a double quote', '"'],
    ['quotes around a word', '"kedi"'],
    ['FTS operators', 'kedi OR NOT video*'],
    ['a column filter', 'search_title: kedi'],
    ['NEAR', 'NEAR(kedi video)'],
    ['a NUL byte and SQL', "\u0000'; DROP TABLE tasks; --"],
    ['only combining marks', '\u0301\u0327'],
    ['an emoji', '🎁'],
  ])('takes %s as plain text to look for', async (_name, q) => {
    // with a category the words are tested on the folded text, without one through the index
    for (const extra of ['', '&category=other']) {
      const res = await t.call('GET', `/api/tasks?q=${encodeURIComponent(q)}${extra}`);
      expect(res.status).toBe(200);
    }
  });

  it('takes the FTS syntax literally: "kedi OR video" is that text, not two words', async () => {
    expect((await search('kedi OR video')).total).toBe(0);
    expect(titles(await search('kedi video'))).toEqual(['Şirin kedi videosu']);
  });

  it('searches the admin view too (all=1), inactive tasks included', async () => {
    const id = await createTask(t, adminToken, {
      title: 'Gizli ÇALIŞMA',
      status: 'inactive',
      category: 'other',
    });
    expect((await search('calisma')).total).toBe(0);
    expect((await search('calisma', '&all=1', adminToken)).items.map((i) => i._id)).toEqual([id]);
    await patchTask(t, id, { deleted_at: new Date().toISOString() });
  });
});
