// The fraud signals through the routes: each signal written with its item, shown to
// admins only, the flagged filters, the linked accounts, and dismissing (audited, once).
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FLAG_RELATED } from '../../contract/fraud';
import { proofPrints } from '../../storage/image';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { burst, fund, makeIban } from '../../testing/money-factories';
import { phoneScreenshot } from '../../testing/phone-screenshots';
import { screenshot } from '../../testing/screenshots';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startedTask, submit } from '../submissions/submission-test-helpers';
import { insertSubmission } from '../submissions/submissions.repository';
import { createTask, settleLatest } from '../tasks/task-test-helpers';
import type { UserRow } from '../users/users.repository';
import { BANDS, proofLookupColumns } from './fingerprint-bands';
import { checkFlags } from './flag-doctor';
import { insertFlag } from './fraud.repository';
import { findDuplicateProofs, MAX_CLOSE_CANDIDATES } from './signals';

let t: TestApp;
let admin: UserRow;
let adminToken: string;

beforeAll(async () => {
  // the client address comes from X-Forwarded-For, as behind the operator's proxy
  t = await createTestApp({ env: { TRUST_PROXY: '1' }, throttle: { registrationsPerAddress: 100 } });
  admin = await makeUser(t.deps.db, { role: 'admin' });
  adminToken = await t.tokenFor(admin);
});
afterAll(() => t.dispose());

async function worker() {
  const user = await makeUser(t.deps.db);
  return { user, token: await t.tokenFor(user) };
}

/** A screenshot task taking no minimum time (so only the signal under test shows). */
const quickTask = (overrides: Record<string, unknown> = {}) =>
  createTask(t, adminToken, { minSeconds: 0, ...overrides });

async function startAndSend(token: string, taskId: string, file: Uint8Array) {
  expect((await t.call('POST', `/api/tasks/${taskId}/start`, { token })).status).toBe(201);
  const res = await submit(t, token, { task: taskId, file });
  expect(res.status).toBe(201);
  return res.body.data._id as string;
}

async function adminSubmission(id: string) {
  const res = await t.call('GET', `/api/admin/submissions/${id}`, { token: adminToken });
  expect(res.status).toBe(200);
  return res.body.data;
}

const kinds = (flags: { kind: string }[]) => flags.map((f) => f.kind).sort();

describe('duplicate proof', () => {
  let first: string;
  let copy: string;

  it('flags a near-identical screenshot sent by another account for another task, and not other apps on the same phone', async () => {
    const store = { app: 'store', dark: false, seed: 901 } as const;
    const png = await phoneScreenshot(store);
    const a = await worker();
    const b = await worker();
    first = await startAndSend(a.token, await quickTask(), png);
    // screens of other apps, and another screen of the same app, from the same phone (the same
    // status and navigation bars): not flagged
    for (const other of [
      { app: 'video', dark: false, seed: 901 },
      { app: 'puzzle', dark: false, seed: 901 },
      { app: 'store', dark: false, seed: 903 },
    ] as const) {
      const id = await startAndSend((await worker()).token, await quickTask(), await phoneScreenshot(other));
      expect((await adminSubmission(id)).flags).toEqual([]);
    }
    // the copy comes back with its notification bar cropped off, its clock moved on, as a JPEG
    const later = await phoneScreenshot({ ...store, clock: '18:42', battery: 31 });
    const jpeg = await sharp(later)
      .extract({ left: 0, top: 44, width: 390, height: 800 })
      .jpeg({ quality: 70 })
      .toBuffer();
    copy = await startAndSend(b.token, await quickTask(), new Uint8Array(jpeg));
    expect((await adminSubmission(first)).flags).toEqual([]);
    const [flag] = (await adminSubmission(copy)).flags;
    expect(flag.message).toMatch(
      /^(9\d|100)% similar to 1 earlier proof \(1 by another account\): all of the screen content matches; status and navigation bars are not compared$/,
    );
    expect(flag.messages.tr).toMatch(
      /^Daha önce gönderilmiş 1 kanıta %(9\d|100) benziyor \(1 tanesi başka hesaplardan\): ekran içeriğinin tamamı eşleşiyor; durum ve gezinme çubukları karşılaştırılmaz$/,
    );
    expect(flag.similarity).toBeGreaterThanOrEqual(90);
    expect(flag.message).toContain(`${flag.similarity}% similar`);
    expect(flag).toMatchObject({
      kind: 'duplicate_proof',
      itemType: 'submission',
      itemId: copy,
      related: [first],
      dismissed: false,
    });
  });

  it("flags the same account's screenshot sent again for another task", async () => {
    const png = await screenshot(102);
    const a = await worker();
    const one = await startAndSend(a.token, await quickTask(), png);
    const two = await startAndSend(a.token, await quickTask(), png);
    const [flag] = (await adminSubmission(two)).flags;
    expect(flag).toMatchObject({ kind: 'duplicate_proof', related: [one] });
    expect(flag.message).toContain('1 by this account for another task');
  });

  it('does not flag a proof sent again for the same task after a rejection, nor a different screenshot', async () => {
    const a = await worker();
    const taskId = await quickTask();
    await startAndSend(a.token, taskId, await screenshot(103));
    await settleLatest(t, a.user._id, taskId, 'rejected');
    expect((await t.call('POST', `/api/tasks/${taskId}/restart`, { token: a.token })).status).toBe(200);
    const again = await submit(t, a.token, { task: taskId, file: await screenshot(103) });
    expect(again.status).toBe(201);
    expect((await adminSubmission(again.body.data._id)).flags).toEqual([]);
    const other = await startAndSend((await worker()).token, await quickTask(), await screenshot(104));
    expect((await adminSubmission(other)).flags).toEqual([]);
  });

  /** Earlier proofs of one worker's started task, rejected, stored straight with these prints. */
  async function storeRejectedProofs(
    proofs: { id: string; prints: { hash: string; print: string }; at: string }[],
  ) {
    const earlier = await startedTask(t, adminToken, { minSeconds: 0 });
    const record = await t.deps.db
      .selectFrom('user_tasks')
      .select('_id')
      .where('user_id', '=', earlier.user._id)
      .where('task_id', '=', earlier.taskId)
      .executeTakeFirstOrThrow();
    await t.deps.db.transaction().execute(async (trx) => {
      for (const proof of proofs) {
        await insertSubmission(trx, {
          _id: proof.id,
          user_task_id: record._id,
          user_id: earlier.user._id,
          task_id: earlier.taskId,
          status: 'rejected',
          reward: 100,
          proof_type: 'screenshot',
          proof_hash: proof.prints.hash,
          ...proofLookupColumns(proof.prints),
          created_at: proof.at,
          updated_at: proof.at,
        });
      }
    });
  }

  it('reads a bounded number of the copies a picture already has, and still names the nearest', async () => {
    // 1,200 earlier (rejected) proofs of one picture: a campaign's screenshot sent again and again
    const png = await screenshot(105);
    const prints = await proofPrints(png);
    const at = new Date().toISOString();
    await storeRejectedProofs(
      Array.from({ length: 1200 }, (_, i) => ({
        id: `copy-of-105-${String(i).padStart(4, '0')}`,
        prints,
        at,
      })),
    );
    // the lookup alone, with the longest list of values any of its statements binds and the rows
    // its statements return
    let longest = 0;
    let rowsRead = 0;
    const listLength = (node: unknown): number => {
      if (!node || typeof node !== 'object') return 0;
      const { kind, values } = node as { kind?: string; values?: unknown[] };
      const own = kind === 'PrimitiveValueListNode' || kind === 'ValueListNode' ? (values?.length ?? 0) : 0;
      return Math.max(own, ...Object.values(node).map(listLength));
    };
    const watched = t.deps.db.withPlugin({
      transformQuery: ({ node }) => {
        longest = Math.max(longest, listLength(node));
        return node;
      },
      transformResult: async ({ result }) => {
        rowsRead += result.rows.length;
        return result;
      },
    });
    const other = await worker();
    const found = await findDuplicateProofs(watched, {
      userId: other.user._id,
      taskId: 'another task',
      ...prints,
    });
    expect(found?.ids).toHaveLength(MAX_FLAG_RELATED);
    expect(found?.others).toBe(MAX_FLAG_RELATED);
    expect(longest).toBeGreaterThan(22); // a key lookup's 22 values and more
    expect(longest).toBeLessThanOrEqual(MAX_CLOSE_CANDIDATES);
    // the copies share one hash: each key's lookup returns it once, and the copies' own rows are
    // read once, up to the cap (not 1,200 a key)
    expect(rowsRead).toBeLessThanOrEqual(BANDS + MAX_CLOSE_CANDIDATES);
    // and the upload itself: accepted, flagged with ten of them
    const id = await startAndSend(other.token, await quickTask(), png);
    const [flag] = (await adminSubmission(id)).flags;
    expect(flag.related).toHaveLength(MAX_FLAG_RELATED);
    for (const related of flag.related) expect(related).toMatch(/^copy-of-105-/);
    expect(flag.messages.en).toBe(
      '100% similar to 10 earlier proofs (10 by other accounts): all of the screen content matches; status and navigation bars are not compared',
    );
  });

  it('over the cap, reads the copies nearest on the hash first', async () => {
    // 600 proofs a few bits off the picture (more than the lookup reads), stored first, and two
    // exact copies stored after them: the exact ones must be among those read, and named first
    const png = await screenshot(106);
    const prints = await proofPrints(png);
    // four bits off on the hash, and four on the print's first word (its parts, and so its keys,
    // unchanged)
    const flip = (hex: string) => ((Number.parseInt(hex[0], 16) ^ 0xf) >>> 0).toString(16) + hex.slice(1);
    const near = { hash: flip(prints.hash), print: flip(prints.print) };
    await storeRejectedProofs([
      ...Array.from({ length: 600 }, (_, i) => ({
        id: `near-106-${String(i).padStart(4, '0')}`,
        prints: near,
        at: '2026-01-01T00:00:00.000Z',
      })),
      ...['exact-106-a', 'exact-106-b'].map((id) => ({ id, prints, at: '2026-02-01T00:00:00.000Z' })),
    ]);
    const other = await worker();
    const found = await findDuplicateProofs(t.deps.db, {
      userId: other.user._id,
      taskId: 'another task',
      ...prints,
    });
    expect(found?.ids).toHaveLength(MAX_FLAG_RELATED);
    expect(found?.ids.slice(0, 2).sort()).toEqual(['exact-106-a', 'exact-106-b']);
    for (const id of found?.ids.slice(2) ?? []) expect(id).toMatch(/^near-106-/);
  });

  it('is shown to admins only: the worker never sees a flags field', async () => {
    const mine = await t.call('GET', '/api/submissions/user', {
      token: await t.tokenFor(
        (await t.deps.db
          .selectFrom('users')
          .selectAll()
          .where(
            '_id',
            '=',
            (
              await t.deps.db
                .selectFrom('submissions')
                .select('user_id')
                .where('_id', '=', copy)
                .executeTakeFirstOrThrow()
            ).user_id,
          )
          .executeTakeFirstOrThrow()) as UserRow,
      ),
    });
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThan(0);
    for (const item of mine.body.data) expect(item).not.toHaveProperty('flags');
  });

  it('is found by the flagged filter of the list and of select-all-matching', async () => {
    const list = await t.call('GET', '/api/admin/submissions?flagged=true&limit=100', { token: adminToken });
    expect(list.status).toBe(200);
    const ids = list.body.data.items.map((s: { _id: string }) => s._id);
    expect(ids).toContain(copy);
    expect(ids).not.toContain(first);
    for (const item of list.body.data.items)
      expect(item.flags.some((f: { dismissed: boolean }) => !f.dismissed)).toBe(true);
    const pending = await t.call('GET', '/api/admin/submissions/pending-ids?flagged=true', {
      token: adminToken,
    });
    expect(pending.body.data.ids).toContain(copy);
    expect(pending.body.data.ids).not.toContain(first);
    expect((await t.call('GET', '/api/admin/submissions?flagged=maybe', { token: adminToken })).status).toBe(
      422,
    );
  });
});

describe('too fast', () => {
  it('flags a proof sent sooner than the task minimum, in both languages, naming the task', async () => {
    const a = await worker();
    const taskId = await createTask(t, adminToken, { minSeconds: 600 });
    const id = await startAndSend(a.token, taskId, await screenshot(110));
    const [flag] = (await adminSubmission(id)).flags;
    expect(flag).toMatchObject({
      kind: 'too_fast',
      related: [taskId],
      messages: {
        en: 'Sent 0 s after starting; this task takes at least 600 s',
        tr: 'Başladıktan 0 sn sonra gönderildi; bu görev en az 600 sn sürer',
      },
    });
  });

  it('derives the minimum from the estimated time when none is set, and 0 turns it off', async () => {
    const derived = await createTask(t, adminToken, { estimatedTime: 8 });
    const task = await t.call('GET', `/api/tasks/${derived}`, { token: adminToken });
    expect(task.body.data).toMatchObject({ minSeconds: null, minSecondsInForce: 120 });
    const a = await worker();
    const id = await startAndSend(a.token, derived, await screenshot(111));
    expect(kinds((await adminSubmission(id)).flags)).toEqual(['too_fast']);
    // a link proof too: the check is about time, not the image
    const off = await createTask(t, adminToken, { minSeconds: 0, estimatedTime: 8 });
    expect(
      kinds((await adminSubmission(await startAndSend(a.token, off, await screenshot(112)))).flags),
    ).toEqual([]);
  });

  it('is an admin field: validated, editable, blank derives it again, hidden from workers', async () => {
    expect(
      (await t.call('POST', '/api/tasks', { token: adminToken, body: { title: 'x', minSeconds: -1 } }))
        .status,
    ).toBe(422);
    const id = await createTask(t, adminToken, { minSeconds: 45 });
    const put = await t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { minSeconds: 90 } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ minSeconds: 90, minSecondsInForce: 90 });
    const blank = await t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { minSeconds: '' } });
    expect(blank.body.data).toMatchObject({ minSeconds: null, minSecondsInForce: 10 });
    const seen = await t.call('GET', `/api/tasks/${id}`, { token: (await worker()).token });
    expect(seen.body.data).not.toHaveProperty('minSeconds');
    expect(seen.body.data).not.toHaveProperty('minSecondsInForce');
  });
});

describe('shared payout account', () => {
  it('flags a withdrawal to an IBAN another account used (however it was typed), not the first', async () => {
    const iban = makeIban('0001000000000000000042');
    const x = await worker();
    const y = await worker();
    await fund(t.deps.db, x.user._id, 10_000, admin._id);
    await fund(t.deps.db, y.user._id, 10_000, admin._id);
    const body = (accountNumber: string) => ({
      amount: 50,
      paymentMethod: 'iban',
      accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber },
    });
    const one = await t.call('POST', '/api/withdraws', { token: x.token, body: body(iban) });
    expect(one.status).toBe(201);
    const spaced = iban.toLowerCase().replace(/(.{4})/g, '$1 ');
    const two = await t.call('POST', '/api/withdraws', { token: y.token, body: body(spaced) });
    expect(two.status).toBe(201);
    expect(two.body.data).not.toHaveProperty('flags');
    const list = await t.call('GET', '/api/admin/withdraws?flagged=true', { token: adminToken });
    const items = list.body.data.items;
    expect(items.map((w: { _id: string }) => w._id)).toEqual([two.body.data._id]);
    expect(items[0].flags[0]).toMatchObject({
      kind: 'shared_payout',
      related: [x.user._id],
      messages: {
        en: 'This IBAN was also used by 1 other account',
        tr: 'Bu IBAN 1 başka hesap tarafından da kullanıldı',
      },
    });
    const csv = await t.call('GET', '/api/admin/withdraws/export.csv?flagged=true&format=rfc4180', {
      token: adminToken,
    });
    expect(csv.body).toContain(two.body.data._id);
    expect(csv.body).not.toContain(one.body.data._id);
    const all = await t.call('GET', `/api/admin/withdraws?userId=${x.user._id}`, { token: adminToken });
    expect(all.body.data.items[0].flags).toEqual([]);
    // the user detail links both ways, with the account number
    const linked = await t.call('GET', `/api/admin/users/${x.user._id}/linked`, { token: adminToken });
    expect(linked.body.data.accounts).toEqual([
      expect.objectContaining({ _id: y.user._id, links: [{ via: 'payout', detail: iban }] }),
    ]);
  });
});

describe('shared device and registration address', () => {
  const register = (email: string, ip: string, device?: string) =>
    t.call('POST', '/api/auth/register', {
      body: { name: 'Deneme Kişi', email, password: TEST_PASSWORD, ...(device && { device_id: device }) },
      headers: { 'X-Forwarded-For': ip },
    });
  const flagsOf = async (id: string) =>
    (await t.call('GET', `/api/admin/users/${id}/linked`, { token: adminToken })).body.data;

  it('flags an account signing up or in on a device another account has, and keeps it up to date', async () => {
    const u1 = await register('cihaz1@example.test', '198.51.100.1', 'device-shared');
    const u2 = await register('cihaz2@example.test', '198.51.100.2', 'device-shared');
    expect([u1.status, u2.status]).toEqual([201, 201]);
    const id1 = u1.body.data._id;
    const id2 = u2.body.data._id;
    expect((await flagsOf(id1)).flags).toEqual([]);
    const [flag2] = (await flagsOf(id2)).flags;
    expect(flag2).toMatchObject({ kind: 'shared_device', itemType: 'user', related: [id1] });
    // a third account signs in on that device: flagged with both
    const u3 = await makeUser(t.deps.db, { email: 'cihaz3@example.test' });
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: 'cihaz3@example.test', password: TEST_PASSWORD, device_id: 'device-shared' },
    });
    expect(login.status).toBe(200);
    expect((await flagsOf(u3._id)).flags[0].related).toEqual([id1, id2].sort());
    // the account's flag shows on its items too (a proof of u3 carries it)
    const linked = await flagsOf(id1);
    expect(linked.accounts.map((a: { _id: string }) => a._id).sort()).toEqual([id2, u3._id].sort());
    expect(linked.accounts[0].links).toEqual([{ via: 'device', detail: 'device-shared' }]);

    // dismissed, it stays dismissed while nothing new is found; a new account on the device opens it again
    const dismissed = await t.call('PUT', `/api/admin/flags/${flag2._id}/dismiss`, {
      token: adminToken,
      body: { note: 'Aynı evde yaşayan kardeşler' },
    });
    expect(dismissed.status).toBe(200);
    const relogin = () =>
      t.call('POST', '/api/auth/login', {
        body: { email: 'cihaz2@example.test', password: TEST_PASSWORD, device_id: 'device-shared' },
      });
    // u3 joined since u2's flag was written: signing in again names u3, a new account: open again
    expect((await relogin()).status).toBe(200);
    const reopened = (await flagsOf(id2)).flags[0];
    expect(reopened).toMatchObject({ dismissed: false, dismissNote: null });
    expect(reopened.related).toEqual([id1, u3._id].sort());
    await t.call('PUT', `/api/admin/flags/${reopened._id}/dismiss`, {
      token: adminToken,
      body: { note: 'ok' },
    });
    expect((await relogin()).status).toBe(200);
    expect((await flagsOf(id2)).flags[0]).toMatchObject({ dismissed: true, dismissNote: 'ok' });
  });

  it('flags the third account registered from one address within a day, not the first two', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await register(`adres${n}@example.test`, '203.0.113.77');
      expect(res.status).toBe(201);
      ids.push(res.body.data._id);
    }
    expect((await flagsOf(ids[0])).flags).toEqual([]);
    expect((await flagsOf(ids[1])).flags).toEqual([]);
    const third = await flagsOf(ids[2]);
    expect(third.flags[0]).toMatchObject({
      kind: 'address_burst',
      related: [ids[0], ids[1]].sort(),
      messages: {
        en: '3 accounts were registered from this address within a day',
        tr: 'Bu adresten bir gün içinde 3 hesap açıldı',
      },
    });
    expect(third.accounts.map((a: { _id: string }) => a._id).sort()).toEqual([ids[0], ids[1]].sort());
    expect(third.accounts[0].links).toEqual([{ via: 'address', detail: '203.0.113.77' }]);
    const elsewhere = await register('adres4@example.test', '203.0.113.78');
    expect((await flagsOf(elsewhere.body.data._id)).flags).toEqual([]);
  });

  it('answers 404 for an unknown account and 403 to a worker', async () => {
    const unknown = await t.call('GET', '/api/admin/users/0123456789abcdef01234567/linked', {
      token: adminToken,
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'user_not_found']);
    const w = await worker();
    expect((await t.call('GET', `/api/admin/users/${w.user._id}/linked`, { token: w.token })).status).toBe(
      403,
    );
  });
});

describe('PUT /api/admin/flags/{id}/dismiss', () => {
  async function flaggedSubmission() {
    const png = await screenshot(120 + Math.floor(Math.random() * 100_000));
    await startAndSend((await worker()).token, await quickTask(), png);
    const copy = await startAndSend((await worker()).token, await quickTask(), png);
    const [flag] = (await adminSubmission(copy)).flags;
    return { copy, flag };
  }
  const dismiss = (id: string, body: unknown, token = adminToken) =>
    t.call('PUT', `/api/admin/flags/${id}/dismiss`, { token, body });

  it('keeps the flag, marked with the admin and the note, writes the audit row, and leaves the flagged filter', async () => {
    const { copy, flag } = await flaggedSubmission();
    const res = await dismiss(flag._id, {
      note: '  Aynı kampanya görseli, kopya değil  ',
      // mass assignment: only the note is read
      dismissedBy: { _id: 'someone' },
      dismissedAt: '2020-01-01T00:00:00.000Z',
      kind: 'too_fast',
      related: [],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: flag._id,
      kind: 'duplicate_proof',
      related: flag.related,
      dismissed: true,
      dismissedBy: { _id: admin._id, name: admin.name },
      dismissNote: 'Aynı kampanya görseli, kopya değil',
    });
    expect(res.body.data.dismissedAt).not.toBe('2020-01-01T00:00:00.000Z');
    expect((await adminSubmission(copy)).flags[0].dismissed).toBe(true);
    const audit = await t.call('GET', `/api/admin/audit?action=flag.dismiss&targetId=${copy}`, {
      token: adminToken,
    });
    expect(audit.status).toBe(200);
    expect(audit.body.data.items).toHaveLength(1);
    expect(audit.body.data.items[0]).toMatchObject({
      action: 'flag.dismiss',
      target: { type: 'submission', id: copy },
    });
    expect(JSON.stringify(audit.body.data.items[0])).toContain('Aynı kampanya görseli, kopya değil');
    const list = await t.call('GET', '/api/admin/submissions?flagged=true&limit=100', { token: adminToken });
    expect(list.body.data.items.map((s: { _id: string }) => s._id)).not.toContain(copy);
  });

  it('refuses a missing, blank or too long note, a second dismissal, an unknown flag, and non-admins', async () => {
    const { flag } = await flaggedSubmission();
    for (const body of [{}, { note: '   ' }, { note: 'x'.repeat(501) }, { note: 5 }]) {
      const res = await dismiss(flag._id, body);
      expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
      expect(res.body.error.errors.note).toBe(
        'Please write why this flag is dismissed (up to 500 characters)',
      );
    }
    const w = await worker();
    expect((await dismiss(flag._id, { note: 'x' }, w.token)).status).toBe(403);
    expect((await dismiss(flag._id, { note: 'x' }, '')).status).toBe(401);
    expect((await dismiss(flag._id, { note: 'ok' })).status).toBe(200);
    const again = await dismiss(flag._id, { note: 'again' });
    expect([again.status, again.body.error.code]).toEqual([409, 'flag_dismissed']);
    const unknown = await dismiss('0123456789abcdef01234567', { note: 'x' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'flag_not_found']);
  });

  it("refuses an admin's own flag: another admin judges it", async () => {
    await insertFlag(t.deps.db, {
      itemType: 'user',
      itemId: admin._id,
      userId: admin._id,
      kind: 'shared_device',
      en: 'x',
      tr: 'x',
      related: [],
      at: new Date().toISOString(),
    });
    const row = await t.deps.db
      .selectFrom('flags')
      .select('_id')
      .where('item_id', '=', admin._id)
      .executeTakeFirstOrThrow();
    const res = await dismiss(row._id, { note: 'benim' });
    expect([res.status, res.body.error.code]).toEqual([403, 'own_item']);
  });

  it('lets exactly one of five admins dismissing at once win, with one audit row', async () => {
    const { flag } = await flaggedSubmission();
    const admins = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }))),
    );
    const results = await burst(5, (i) => dismiss(flag._id, { note: `admin ${i}` }, admins[i]));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const rows = await t.deps.db
      .selectFrom('audit_log')
      .select('changes')
      .where('action', '=', 'flag.dismiss')
      .where('changes', 'like', `%${flag._id}%`)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe("doctor's flags check", () => {
  it('is clean after everything above, and finds a flag about nothing, a half dismissal, a dismissal without its audit row and a similarity on another kind', async () => {
    expect(await checkFlags(t.deps.db)).toEqual([]);
    const at = new Date().toISOString();
    const flag = (itemId: string) => ({
      itemType: 'submission' as const,
      itemId,
      userId: admin._id,
      kind: 'too_fast' as const,
      en: 'x',
      tr: 'x',
      related: [],
      at,
    });
    const { copy } = await (async () => {
      const png = await screenshot(777);
      await startAndSend((await worker()).token, await quickTask(), png);
      return { copy: await startAndSend((await worker()).token, await quickTask(), png) };
    })();
    await insertFlag(t.deps.db, flag('aaaaaaaaaaaaaaaaaaaaaaaa'));
    const [dup] = (await adminSubmission(copy)).flags;
    await t.deps.db
      .updateTable('flags')
      .set({ dismissed_at: at, dismissed_by: admin._id, dismiss_note: 'elle' })
      .where('_id', '=', dup._id)
      .execute();
    await insertFlag(t.deps.db, flag(copy));
    await t.deps.db
      .updateTable('flags')
      .set({ dismiss_note: 'yarım', similarity: 50 })
      .where('item_id', '=', copy)
      .where('kind', '=', 'too_fast')
      .execute();
    const found = await checkFlags(t.deps.db);
    expect(found).toHaveLength(4);
    expect(found.join('\n')).toMatch(/\(too_fast\) has a similarity, which only duplicate proofs have/);
    expect(found.join('\n')).toMatch(/about submission aaaaaaaaaaaaaaaaaaaaaaaa, which does not exist/);
    expect(found.join('\n')).toMatch(/half dismissed/);
    expect(found.join('\n')).toContain(`flag ${dup._id} was dismissed without its audit row`);
    await t.deps.db.deleteFrom('flags').where('item_id', 'in', ['aaaaaaaaaaaaaaaaaaaaaaaa', copy]).execute();
    expect(await checkFlags(t.deps.db)).toEqual([]);
  });
});
