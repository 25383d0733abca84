// The audit log. Every covered admin action writes its row in the action's own
// transaction (who, when, a stable code, the target, the fields changed before and after,
// never a password); the log is append-only, admins read it with filters, and doctor compares
// it with the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import listsEn from '../../../src-web/locales/en/adminLists.json';
import listsTr from '../../../src-web/locales/tr/adminLists.json';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { makeWithdrawal } from '../../testing/money-factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { autoApproveDue } from '../submissions/auto-approve';
import { multipart, submit } from '../submissions/submission-test-helpers';
import { createTask } from '../tasks/task-test-helpers';
import { createOrPromoteAdmin } from '../users/admin-account';
import type { UserRow } from '../users/users.repository';
import { checkAuditLedger } from './audit-doctor';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
let now = Date.parse('2026-11-10T08:00:00.000Z');
const png = pngFile(10, 10);

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
  admin = await makeUser(t.deps.db, { role: 'admin', name: 'Denetçi Admin' });
  adminToken = await t.tokenFor(admin);
});
afterAll(() => t.dispose());

interface Entry {
  id: number;
  at: string;
  actor: { _id: string; name: string | null; email: string | null; deleted: boolean } | null;
  action: string;
  target: { type: string; id: string | null };
  changes: Record<string, unknown>;
}
const audit = async (query = '', token = adminToken) => {
  const res = await t.call('GET', `/api/admin/audit${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.data as { items: Entry[]; total: number; pages: number };
};
/** The rows about one target, oldest first. */
const about = async (type: string, id: string) =>
  (await audit(`?targetType=${type}&targetId=${id}&limit=100`)).items.reverse();
const tick = () => {
  now += 1000;
};

async function sentProof(token: string, reward = 5) {
  const taskId = await createTask(t, adminToken, { reward, maxCompletions: 10 });
  await t.call('POST', `/api/tasks/${taskId}/start`, { token });
  const sent = await submit(t, token, { task: taskId, file: png });
  return sent.body.data._id as string;
}

describe('the rows of every covered action', () => {
  it('tasks: create, edit (the fields changed, before and after), feature, delete', async () => {
    const id = await createTask(t, adminToken, { title: 'Denetim görevi', reward: 3, maxCompletions: 5 });
    tick();
    await t.call('PUT', `/api/tasks/${id}`, { token: adminToken, body: { title: 'Yeni başlık', reward: 4 } });
    tick();
    await t.call('PUT', `/api/tasks/${id}/feature`, { token: adminToken, body: { isFeatured: true } });
    tick();
    await t.call('DELETE', `/api/tasks/${id}`, { token: adminToken });
    const rows = await about('task', id);
    expect(rows.map((r) => r.action)).toEqual(['task.create', 'task.update', 'task.feature', 'task.delete']);
    expect(rows.every((r) => r.actor?._id === admin._id && r.actor.name === 'Denetçi Admin')).toBe(true);
    expect(rows[0]?.changes).toMatchObject({ title: 'Denetim görevi', reward: 300, maxCompletions: 5 });
    expect(rows[1]?.changes).toEqual({ title: ['Denetim görevi', 'Yeni başlık'], reward: [300, 400] });
    expect(rows[2]?.changes).toEqual({ isFeatured: [false, true] });
  });

  it('submissions: approve, reject, bulk, appeal decisions, and auto-approval by the system', async () => {
    const worker = await makeUser(t.deps.db);
    const token = await t.tokenFor(worker);
    const a = await sentProof(token);
    const b = await sentProof(token);
    const c = await sentProof(token);
    const d = await sentProof(token);
    await t.call('PUT', `/api/submissions/${a}/review`, {
      token: adminToken,
      body: { status: 'approved', feedback: 'ok' },
    });
    await t.call('PUT', `/api/submissions/${b}/review`, {
      token: adminToken,
      body: { status: 'rejected', feedback: 'Göremedik', rejectionReason: 'no_share' },
    });
    await t.call('PUT', '/api/admin/submissions/review', {
      token: adminToken,
      body: { ids: [c], status: 'approved', feedback: 'ok' },
    });
    // a replayed or lost decision writes nothing
    await t.call('PUT', `/api/submissions/${a}/review`, {
      token: adminToken,
      body: { status: 'approved', feedback: 'ok' },
    });
    await t.call('POST', `/api/submissions/${b}/appeal`, {
      token,
      body: { message: 'Paylaşımı yaptım, lütfen bakın.' },
    });
    await t.call('PUT', `/api/admin/submissions/${b}/appeal`, {
      token: adminToken,
      body: { decision: 'overturn', response: 'Haklısınız.' },
    });
    // the same image sent at once is flagged, and a flagged proof waits for a person: a person
    // looks and dismisses the flags first
    const flags = await t.deps.db
      .selectFrom('flags')
      .select('_id')
      .where('item_id', 'in', [d, worker._id])
      .where('dismissed_at', 'is', null)
      .execute();
    for (const f of flags) {
      const res = await t.call('PUT', `/api/admin/flags/${f._id}/dismiss`, {
        token: adminToken,
        body: { note: 'Aynı ekran görüntüsü, bilerek' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await t.call('PUT', '/api/settings', { token: adminToken, body: { review: { autoApproveDays: 1 } } });
    now += 2 * 86_400_000;
    expect(await autoApproveDue(t.deps)).toBeGreaterThanOrEqual(1);
    await t.call('PUT', '/api/settings', { token: adminToken, body: { review: { autoApproveDays: 0 } } });

    expect((await about('submission', a)).map((r) => r.action)).toEqual(['submission.approve']);
    const [approved] = await about('submission', a);
    expect(approved?.changes).toMatchObject({
      status: ['pending', 'approved'],
      reward: 500,
      user: worker._id,
    });
    expect(
      (await about('submission', b)).map((r) => [r.action, r.changes.rejectionReason ?? r.changes.response]),
    ).toEqual([
      ['submission.reject', 'no_share'],
      ['appeal.overturn', 'Haklısınız.'],
    ]);
    expect((await about('submission', c)).map((r) => r.action)).toEqual(['submission.approve']);
    const auto = await about('submission', d);
    // the person's dismissals, then the system's approval with no actor
    expect(auto.map((r) => r.action)).toEqual([
      ...flags.map(() => 'flag.dismiss'),
      'submission.auto_approve',
    ]);
    expect(auto.at(-1)?.actor).toBeNull();
  });

  it('users: edit, standing and ban, balance, password set (no value), delete', async () => {
    const user = await makeUser(t.deps.db, { name: 'Düzenlenecek', email: 'edit.me@example.test' });
    const body = { name: 'Düzenlendi', email: 'edit.me@example.test' };
    await t.call('PUT', `/api/admin/users/${user._id}`, {
      token: adminToken,
      body: { ...body, balance: 12.5 },
    });
    tick();
    await t.call('PUT', `/api/admin/users/${user._id}`, {
      token: adminToken,
      body: { ...body, status: 'banned', banReason: 'Sahte kanıt', password: 'yeni-sifre-123' },
    });
    tick();
    await t.call('PUT', `/api/admin/users/${user._id}`, { token: adminToken, body: { ...body, balance: 0 } });
    tick();
    expect((await t.call('DELETE', `/api/admin/users/${user._id}`, { token: adminToken })).status).toBe(200);
    const rows = await about('user', user._id);
    expect(rows.map((r) => r.action)).toEqual([
      'user.update',
      'user.balance',
      'user.status',
      'user.password',
      'user.balance',
      'user.delete',
    ]);
    expect(rows[0]?.changes).toEqual({ name: ['Düzenlenecek', 'Düzenlendi'] });
    expect(rows[1]?.changes).toEqual({ balance: [0, 1250], delta: 1250 });
    expect(rows[2]?.changes).toEqual({ status: ['active', 'banned'], banReason: [null, 'Sahte kanıt'] });
    expect(rows[3]?.changes).toEqual({ set: true });
    // never a password or its hash, anywhere in the log
    const raw = await t.deps.db.selectFrom('audit_log').select('changes').execute();
    expect(raw.map((r) => r.changes).join('\n')).not.toMatch(/yeni-sifre|\$argon2|password/i);
  });

  it('withdrawals approved and rejected, settings, the logo, a notification, an admin from the command line', async () => {
    const user = await makeUser(t.deps.db);
    await t.call('PUT', `/api/admin/users/${user._id}`, {
      token: adminToken,
      body: { name: user.name, email: user.email, balance: 100 },
    });
    const paid = await makeWithdrawal(t.deps.db, user._id, { amount: 3000 });
    const refused = await makeWithdrawal(t.deps.db, user._id, { amount: 2000 });
    await t.call('PUT', `/api/admin/withdraws/${paid}/approve`, { token: adminToken });
    await t.call('PUT', `/api/admin/withdraws/${refused}/reject`, {
      token: adminToken,
      body: { reason: 'IBAN hatalı' },
    });
    expect((await about('withdrawal', paid)).map((r) => [r.action, r.changes.amount])).toEqual([
      ['withdrawal.approve', 3000],
    ]);
    expect((await about('withdrawal', refused))[0]?.changes).toMatchObject({ reason: 'IBAN hatalı' });

    tick();
    await t.call('PUT', '/api/settings', { token: adminToken, body: { site: { name: 'Denetim Sitesi' } } });
    const { body, contentType } = multipart([
      { name: 'logo', filename: 'logo.png', type: 'image/png', data: pngFile(20, 10) },
    ]);
    tick();
    await t.call('PUT', '/api/settings/logo', {
      token: adminToken,
      raw: body,
      headers: { 'Content-Type': contentType },
    });
    const settings = (await audit('?targetType=settings&limit=100')).items;
    expect(settings[0]?.action).toBe('settings.logo');
    expect(settings[1]).toMatchObject({
      action: 'settings.update',
      changes: { 'site.name': ['TaskReward', 'Denetim Sitesi'] },
    });

    await t.call('POST', '/api/auth/send-notification', {
      token: adminToken,
      body: { notificationType: 'customMessage', target: 'all', title: 'Duyuru', message: 'Merhaba' },
    });
    const [sent] = (await audit('?action=notification.send')).items;
    expect(sent).toMatchObject({
      target: { type: 'notification' },
      changes: { title: 'Duyuru', target: 'all' },
    });

    expect(
      await createOrPromoteAdmin(t.deps, {
        email: 'cli@example.test',
        name: 'CLI Admin',
        password: 'secret12345',
      }),
    ).toBe('created');
    const [made] = (await audit('?action=admin.create')).items;
    expect(made).toMatchObject({ actor: null, changes: { email: 'cli@example.test', role: 'admin' } });
  });
});

describe('the words of the rows', () => {
  it('gives every field the rows above wrote a label on the audit screen, in both languages', async () => {
    const rows = await t.deps.db.selectFrom('audit_log').select('changes').execute();
    const fields = [...new Set(rows.flatMap((r) => Object.keys(JSON.parse(r.changes))))].sort();
    expect(fields.length).toBeGreaterThan(30);
    // a setting is named section.field, its label nested the same way
    const label = (labels: object, field: string) =>
      field
        .split('.')
        .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], labels);
    for (const labels of [listsEn.audit.fields, listsTr.audit.fields]) {
      expect(fields.filter((f) => typeof label(labels, f) !== 'string')).toEqual([]);
    }
  });
});

describe('reading the log', () => {
  it('filters by admin, action, target and days, newest first, server-paginated', async () => {
    const other = await makeUser(t.deps.db, { role: 'admin', name: 'İkinci Admin' });
    const otherToken = await t.tokenFor(other);
    now = Date.parse('2026-12-01T10:00:00.000Z');
    const first = await createTask(t, otherToken, { title: 'Aralık 1' });
    now = Date.parse('2026-12-03T10:00:00.000Z');
    const second = await createTask(t, otherToken, { title: 'Aralık 3' });
    const mine = await audit(`?actor=${other._id}`);
    expect(mine.items.map((r) => r.target.id)).toEqual([second, first]);
    expect(
      (await audit(`?actor=${other._id}&from=2026-12-02&to=2026-12-03`)).items.map((r) => r.target.id),
    ).toEqual([second]);
    expect((await audit(`?actor=${other._id}&to=2026-12-01`)).items.map((r) => r.target.id)).toEqual([first]);
    const page = await audit('?limit=2&page=2');
    expect(page.items).toHaveLength(2);
    expect(page.pages).toBe(Math.ceil(page.total / 2));
    for (const bad of [
      '?action=task.explode',
      '?targetType=planet',
      '?from=2026-13-01',
      '?actor=x',
      '?limit=500',
    ]) {
      expect((await t.call('GET', `/api/admin/audit${bad}`, { token: adminToken })).status).toBe(422);
    }
  });

  it('is for admins only, and append-only', async () => {
    const user = await makeUser(t.deps.db);
    const res = await t.call('GET', '/api/admin/audit', { token: await t.tokenFor(user) });
    expect(res.status).toBe(403);
    expect((await t.call('GET', '/api/admin/audit')).status).toBe(401);
    await expect(t.deps.db.updateTable('audit_log').set({ action: 'x' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(t.deps.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
  });

  it('doctor: every money move has its row and every money row its move; a missing one is found', async () => {
    expect(await checkAuditLedger(t.deps.db)).toEqual([]);
    // a balance written behind the log's back
    const user = await makeUser(t.deps.db);
    await t.deps.db
      .insertInto('ledger')
      .values({
        user_id: user._id,
        amount: 500,
        kind: 'adjustment',
        ref: null,
        actor_id: admin._id,
        created_at: new Date(now).toISOString(),
      })
      .execute();
    await t.deps.db.updateTable('users').set({ balance: 500 }).where('_id', '=', user._id).execute();
    expect(await checkAuditLedger(t.deps.db)).toEqual([
      expect.stringMatching(
        new RegExp(`adjustment ledger row \\d+ of user ${user._id} has no balance change`),
      ),
    ]);
  });
});
