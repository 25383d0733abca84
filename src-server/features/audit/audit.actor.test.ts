// Who did what stays as it was: every row keeps the actor's name and email of its moment, a
// rename or a deletion of the admin later changes none of their past rows; the first admin made
// through the setup link is in the log as the command line's and the environment's are; an
// admin's own profile changes (name, photo, password: never its value) are in the log too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser, TEST_PASSWORD } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createTask } from '../tasks/task-test-helpers';
import { checkAuditActors } from './audit-doctor';

let t: TestApp;
let now = Date.parse('2026-11-29T09:00:00.000Z');
beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(now) });
});
afterAll(() => t.dispose());

interface Entry {
  action: string;
  actor: { _id: string; name: string | null; email: string | null; deleted: boolean } | null;
  target: { type: string; id: string | null };
  changes: Record<string, unknown>;
}

async function adminWithToken(name: string, email: string) {
  const admin = await makeUser(t.deps.db, { role: 'admin', name, email });
  return { admin, token: await t.tokenFor(admin) };
}

/** Every row of the log (newest first), as a watching admin reads it. */
async function log(token: string, query = ''): Promise<Entry[]> {
  const res = await t.call('GET', `/api/admin/audit?limit=100${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.data.items;
}

let watcherToken: string;
beforeAll(async () => {
  ({ token: watcherToken } = await adminWithToken('Gözcü Admin', 'watcher@example.test'));
});

describe('the actor of each row, as they were', () => {
  it.each([
    {
      scenario: 'a rename through the profile',
      after: async (id: string, token: string) => {
        const res = await t.call('PUT', '/api/users/me', { token, body: { name: 'Yeni Adım' } });
        expect(res.status).toBe(200);
        return id;
      },
      deleted: false,
    },
    {
      scenario: 'a deletion of the admin by another',
      after: async (id: string) => {
        const res = await t.call('DELETE', `/api/admin/users/${id}`, { token: watcherToken });
        expect(res.status).toBe(200);
        return id;
      },
      deleted: true,
    },
  ])('keeps the name and email of an earlier row after $scenario', async ({ after, deleted }) => {
    const email = `actor-${deleted ? 'gone' : 'renamed'}@example.test`;
    const { admin, token } = await adminWithToken('Eski Adım', email);
    now += 1000;
    const taskId = await createTask(t, token, { title: 'Kimin görevi' });
    now += 1000;
    await after(admin._id, token);
    const [created] = await log(watcherToken, `&targetType=task&targetId=${taskId}`);
    expect(created?.action).toBe('task.create');
    expect(created?.actor).toEqual({ _id: admin._id, name: 'Eski Adım', email, deleted });
    // the users row itself has changed: the log did not follow it
    const row = await t.deps.db
      .selectFrom('users')
      .select(['name', 'email'])
      .where('_id', '=', admin._id)
      .executeTakeFirstOrThrow();
    expect(row.name === 'Eski Adım' && row.email === email).toBe(false);
  });
});

describe("an admin's own profile changes", () => {
  it.each([
    {
      scenario: 'a new name',
      body: { name: 'Kendi Adım 2' },
      action: 'user.update',
      changes: { name: ['Kendi Adım', 'Kendi Adım 2'] },
    },
    {
      scenario: 'a new phone and bio',
      body: { name: 'Kendi Adım', phone: '0532 000 00 00', bio: 'Yönetici' },
      action: 'user.update',
      changes: { phone: [null, '0532 000 00 00'], bio: [null, 'Yönetici'] },
    },
    {
      scenario: 'a new password (never its value)',
      body: { name: 'Kendi Adım', password: 'yeni-gizli-456', currentPassword: TEST_PASSWORD },
      action: 'user.password',
      changes: { set: true },
    },
  ])('writes $action for $scenario, the admin being actor and target', async ({ body, action, changes }) => {
    const { admin, token } = await adminWithToken('Kendi Adım', `self-${action}-${now}@example.test`);
    now += 1000;
    const res = await t.call('PUT', '/api/users/me', { token, body });
    expect(res.status).toBe(200);
    const rows = await log(watcherToken, `&targetType=user&targetId=${admin._id}`);
    expect(rows.map((r) => [r.action, r.changes])).toEqual([[action, changes]]);
    expect(rows[0]?.actor).toMatchObject({ _id: admin._id, name: 'Kendi Adım', deleted: false });
    const raw = await t.deps.db.selectFrom('audit_log').select('changes').execute();
    expect(raw.map((r) => r.changes).join('\n')).not.toMatch(/yeni-gizli|\$argon2|password/i);
  });

  it('writes the photo change with the old and new address', async () => {
    const { admin, token } = await adminWithToken('Fotoğraflı', 'photo-admin@example.test');
    const data = new FormData();
    data.append('name', 'Fotoğraflı');
    data.append('profileImage', new Blob([new Uint8Array(pngFile(12, 12))], { type: 'image/png' }), 'me.png');
    const res = await t.call('PUT', '/api/users/me', { token, raw: data });
    expect(res.status).toBe(200);
    const rows = await log(watcherToken, `&targetType=user&targetId=${admin._id}`);
    expect(rows.map((r) => [r.action, r.changes])).toEqual([
      ['user.update', { profileImage: [null, res.body.data.profileImage] }],
    ]);
  });

  it("writes nothing for a worker's own profile change (the log is of admins' actions)", async () => {
    const worker = await makeUser(t.deps.db, { name: 'İşçi' });
    const res = await t.call('PUT', '/api/users/me', {
      token: await t.tokenFor(worker),
      body: { name: 'İşçi 2' },
    });
    expect(res.status).toBe(200);
    expect(await log(watcherToken, `&targetType=user&targetId=${worker._id}`)).toEqual([]);
  });
});

describe('the first admin made through the setup link', () => {
  it('writes admin.create as the command line and the environment do', async () => {
    const fresh = await createTestApp();
    try {
      const token = await fresh.deps.setup.open();
      const res = await fresh.call('POST', '/api/setup', {
        headers: { 'X-Setup-Token': token },
        body: { name: 'Site Sahibi', email: 'owner@example.test', password: 'owner-pass-1' },
      });
      expect(res.status).toBe(201);
      const read = await fresh.call('GET', '/api/admin/audit?action=admin.create', { token: res.body.token });
      expect(read.body.data.items).toEqual([
        expect.objectContaining({
          actor: null,
          action: 'admin.create',
          target: expect.objectContaining({ type: 'user', id: res.body.data._id }),
          changes: { name: 'Site Sahibi', email: 'owner@example.test', role: 'admin' },
        }),
      ]);
    } finally {
      await fresh.dispose();
    }
  });
});

describe('doctor', () => {
  it('finds a row whose live actor it does not name, and no other', async () => {
    expect(await checkAuditActors(t.deps.db)).toEqual([]);
    const { admin } = await adminWithToken('Adsız', 'nameless@example.test');
    // written behind the log's writer: the actor's id without their name and email
    await t.deps.db
      .insertInto('audit_log')
      .values({
        at: new Date(now).toISOString(),
        actor_id: admin._id,
        actor_name: null,
        actor_email: null,
        action: 'task.delete',
        target_type: 'task',
        target_id: null,
        changes: '{}',
      })
      .execute();
    expect(await checkAuditActors(t.deps.db)).toEqual([
      expect.stringMatching(
        new RegExp(`^audit row \\d+ \\(task.delete\\) does not name its actor ${admin._id}$`),
      ),
    ]);
  });
});
