import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund, makePendingSubmission, makeTask, makeWithdrawal } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import type { UserRow } from '../users/users.repository';
import { EXPORT_BATCH } from './admin-exports.service';
import { csvCell, lira, trDate } from './csv';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
let worker: UserRow;
let plain: UserRow;
let evilTask: string;
beforeAll(async () => {
  ({ t, admin, adminToken } = await createAdminTestApp());
  worker = await makeUser(t.deps.db, {
    name: 'Şükrü Öztürk',
    email: 'sukru@example.test',
    phone: '+905551112233',
    created_at: '2026-05-10T09:04:05.000Z',
  });
  plain = await makeUser(t.deps.db, {
    name: '=HYPERLINK("http://evil.test","tıkla")',
    email: 'evil@example.test',
  });
  evilTask = await makeTask(t.deps.db, { title: '@SUM(1+1)*cmd|" /C calc"!A0', reward: 123456 });
  const { submissionId } = await makePendingSubmission(t.deps.db, worker._id, {
    taskId: evilTask,
    reward: 123456,
    createdAt: '2026-05-10T21:30:00.000Z',
  });
  await t.deps.db
    .updateTable('submissions')
    .set({ description: 'Yaptım; "tamam"\nikinci satır' })
    .where('_id', '=', submissionId)
    .execute();
  await makePendingSubmission(t.deps.db, plain._id, { reward: 250, createdAt: '2026-05-09T08:00:00.000Z' });
  await fund(t.deps.db, worker._id, 500_000, admin._id);
  await makeWithdrawal(t.deps.db, worker._id, {
    amount: 205_075,
    full_name: '-Ayşe Yılmaz',
    created_at: '2026-05-11T10:00:00.000Z',
  });
});
afterAll(() => t.dispose());

async function download(path: string, token = adminToken) {
  const res = await t.app.request(path, { headers: { Authorization: `Bearer ${token}` } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
}

/** A small RFC 4180 reader for the tests: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string, sep: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      out.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  expect(cell).toBe('');
  return out;
}

describe('GET /api/admin/submissions/export.csv', () => {
  it('is Excel-Turkish by default: BOM, semicolons, decimal comma, tr-TR dates, a Turkish name, injection neutralised', async () => {
    const { res, bytes, text } = await download('/api/admin/submissions/export.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="taskreward-submissions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(text.slice(1), ';');
    expect(rows[0]).toEqual([
      'ID',
      'Tarih',
      'Görev',
      'Görev ID',
      'Kullanıcı',
      'E-posta',
      'Kullanıcı ID',
      'Durum',
      'Ödül (TL)',
      'Açıklama',
      'Geri bildirim',
      'Ret sebebi',
      'İncelenme tarihi',
    ]);
    expect(rows).toHaveLength(3);
    // newest first: 21:30 UTC on the 10th is 00:30 on the 11th in Turkey
    const [, first, second] = rows;
    expect(first[1]).toBe('11.05.2026 00:30:00');
    expect(first[2]).toBe(`'@SUM(1+1)*cmd|" /C calc"!A0`);
    expect(first[4]).toBe('Şükrü Öztürk');
    expect(first[7]).toBe('Beklemede');
    expect(first[8]).toBe('1234,56');
    expect(first[9]).toBe('Yaptım; "tamam"\nikinci satır');
    expect(second[4]).toBe(`'=HYPERLINK("http://evil.test","tıkla")`);
    expect(second[8]).toBe('2,50');
  });

  it('is plain comma CSV with ?format=rfc4180: no BOM, dot decimals, ISO dates, English with ?lang=en', async () => {
    const { res, text } = await download('/api/admin/submissions/export.csv?format=rfc4180&lang=en');
    expect(res.status).toBe(200);
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    const rows = parseCsv(text, ',');
    expect(rows[0].slice(0, 3)).toEqual(['ID', 'Date', 'Task']);
    expect(rows[1][1]).toBe('2026-05-10T21:30:00.000Z');
    expect(rows[1][2]).toBe(`'@SUM(1+1)*cmd|" /C calc"!A0`);
    expect(rows[1][7]).toBe('Pending');
    expect(rows[1][8]).toBe('1234.56');
    // quoted: holds a comma and quotes
    expect(text).toContain(`"'=HYPERLINK(""http://evil.test"",""tıkla"")"`);
  });

  it("applies the screen's filters: status and search", async () => {
    const approved = await download('/api/admin/submissions/export.csv?status=approved');
    expect(parseCsv(approved.text.slice(1), ';')).toHaveLength(1);
    const searched = await download(`/api/admin/submissions/export.csv?q=${encodeURIComponent('Şükrü')}`);
    const rows = parseCsv(searched.text.slice(1), ';');
    expect(rows.map((r) => r[4])).toEqual(['Kullanıcı', 'Şükrü Öztürk']);
  });

  it('refuses an unknown format or language with 422 and sends no file', async () => {
    for (const query of ['format=xlsx', 'lang=de', 'status=done']) {
      const res = await t.call('GET', `/api/admin/submissions/export.csv?${query}`, { token: adminToken });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
    }
  });

  it('walks more than one batch without losing or repeating a row', async () => {
    const rows = [];
    // one timestamp for all: the cursor's tie-break on _id is what keeps them apart
    const at = '2026-04-01T12:00:00.000Z';
    for (let i = 0; i < EXPORT_BATCH + 5; i++) {
      const u = `${String(i).padStart(24, '0')}`;
      rows.push(u);
      await t.deps.db
        .insertInto('users')
        .values({
          _id: u,
          name: `Toplu ${i}`,
          email: `toplu${i}@example.test`,
          password_hash: 'x',
          role: 'user',
          status: 'active',
          balance: 0,
          total_earned: 0,
          created_at: at,
          updated_at: at,
          name_search: `toplu ${i}`,
        })
        .execute();
    }
    const { text } = await download('/api/admin/users/export.csv?q=toplu&format=rfc4180');
    const ids = parseCsv(text, ',')
      .slice(1)
      .map((r) => r[0]);
    expect(ids).toHaveLength(EXPORT_BATCH + 5);
    expect(new Set(ids).size).toBe(EXPORT_BATCH + 5);
    expect(ids).toEqual([...rows].sort().reverse());
  });
});

describe('GET /api/admin/withdraws/export.csv and /users/export.csv', () => {
  it('exports withdrawals with the amount, the holder neutralised and the date filter', async () => {
    const { text } = await download('/api/admin/withdraws/export.csv?from=2026-05-11&to=2026-05-11');
    const rows = parseCsv(text.slice(1), ';');
    expect(rows).toHaveLength(2);
    expect(rows[1][2]).toBe('Şükrü Öztürk');
    expect(rows[1][5]).toBe('2050,75');
    expect(rows[1][6]).toBe('Papara');
    expect(rows[1][7]).toBe(`'-Ayşe Yılmaz`);
    expect(rows[1][9]).toBe('Beklemede');
    const none = await download('/api/admin/withdraws/export.csv?from=2026-05-12');
    expect(parseCsv(none.text.slice(1), ';')).toHaveLength(1);
  });

  it('exports users with balances and a neutralised phone number', async () => {
    const { text } = await download(`/api/admin/users/export.csv?q=${encodeURIComponent('şükrü')}`);
    const rows = parseCsv(text.slice(1), ';');
    expect(rows).toHaveLength(2);
    const [, row] = rows;
    expect(row.slice(1, 6)).toEqual([
      'Şükrü Öztürk',
      'sukru@example.test',
      `'+905551112233`,
      'Kullanıcı',
      'Aktif',
    ]);
    // 5,000 TL funded, 2,050.75 TL held by the withdrawal
    expect(row[7]).toBe('2949,25');
    expect(row[9]).toBe('10.05.2026 12:04:05');
  });

  it('is for admins only', async () => {
    const userToken = await t.tokenFor(worker);
    for (const kind of ['submissions', 'withdraws', 'users']) {
      const res = await t.call('GET', `/api/admin/${kind}/export.csv`, { token: userToken });
      expect(res.status).toBe(403);
    }
  });

  it('runs at most two exports at once: a third waits with 429 and Retry-After', async () => {
    const first = await t.app.request('/api/admin/users/export.csv', {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    const second = await t.app.request('/api/admin/users/export.csv', {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    const third = await t.call('GET', '/api/admin/users/export.csv', { token: adminToken });
    expect(third.status).toBe(429);
    expect(third.body.error.retryAfter).toBe(5);
    await first.body?.cancel();
    await second.arrayBuffer();
    const fourth = await download('/api/admin/users/export.csv');
    expect(fourth.res.status).toBe(200);
  });
});

describe('csv cells', () => {
  it.each([
    ['=1+2', ';', `'=1+2`],
    ['+90 555', ';', `'+90 555`],
    ['-5', ';', `'-5`],
    ['@cmd', ';', `'@cmd`],
    ['\tx', ';', `'\tx`],
    ['a;b', ';', '"a;b"'],
    ['a;b', ',', 'a;b'],
    ['say "hi"', ',', '"say ""hi"""'],
    ['İstanbul', ',', 'İstanbul'],
  ])('%j with %s is %j', (value, sep, expected) => {
    expect(csvCell(value, sep)).toBe(expected);
  });

  it('writes money and dates the Turkish way', () => {
    expect(lira(123456, ',')).toBe('1234,56');
    expect(lira(5, ',')).toBe('0,05');
    expect(lira(100, '.')).toBe('1.00');
    expect(trDate('2026-12-31T21:00:00.000Z')).toBe('01.01.2027 00:00:00');
    expect(trDate(null)).toBe('');
  });
});
