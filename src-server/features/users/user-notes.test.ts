// Admins' internal notes on an account: only an admin as the account is now may read or add
// them, each addition is in the audit log, the body names only the text, notes sent at once all
// land (and none past the cap), and the account's deletion erases them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTE_MAX_LENGTH, NOTES_PER_USER_MAX } from '../../contract/user-notes';
import { newId } from '../../db/ids';
import { makeUser } from '../../testing/factories';
import { burst } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import { checkDeletedUsers } from './deleted-user-doctor';

let t: TestApp;
let adminToken: string;
let adminId: string;
beforeAll(async () => {
  const made = await createAdminTestApp({
    throttle: { perPair: 10_000, perAddress: 100_000, windowSeconds: 60 },
  });
  t = made.t;
  adminToken = made.adminToken;
  adminId = made.admin._id;
});
afterAll(() => t.dispose());

const notesOf = (userId: string) =>
  t.deps.db.selectFrom('user_notes').selectAll().where('user_id', '=', userId).execute();
const add = (userId: string, body: unknown, token = adminToken) =>
  t.call('POST', `/api/admin/users/${userId}/notes`, { token, body });

describe('an admin', () => {
  it('adds a note, reads it back newest first, and the log says so without its text', async () => {
    const user = await makeUser(t.deps.db, { name: 'Notlu Kişi' });
    expect((await add(user._id, { body: '  Aradı, ödemesini sordu  ' })).status).toBe(201);
    const second = await add(user._id, { body: 'İkinci not' });
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ body: 'İkinci not', author: { _id: adminId, name: 'Admin' } });
    const list = await t.call('GET', `/api/admin/users/${user._id}/notes`, { token: adminToken });
    expect(list.status).toBe(200);
    expect(list.body.data.map((n: { body: string }) => n.body)).toEqual([
      'İkinci not',
      'Aradı, ödemesini sordu',
    ]);
    const log = await t.call('GET', `/api/admin/audit?action=user.note&targetId=${user._id}`, {
      token: adminToken,
    });
    expect(log.body.data.items).toHaveLength(2);
    expect(log.body.data.items[0]).toMatchObject({
      actor: { _id: adminId },
      target: { type: 'user', id: user._id, user: { name: 'Notlu Kişi' } },
      changes: { length: 'İkinci not'.length },
    });
  });

  it.each([
    ['no body', {}],
    ['an empty text', { body: '   ' }],
    ['a number', { body: 42 }],
    ['a text too long', { body: 'n'.repeat(NOTE_MAX_LENGTH + 1) }],
  ])('is refused %s with a 422 and nothing stored', async (_label, body) => {
    const user = await makeUser(t.deps.db);
    const res = await add(user._id, body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(await notesOf(user._id)).toEqual([]);
  });

  it('cannot choose the author, the account, the id or the time (mass assignment)', async () => {
    const user = await makeUser(t.deps.db);
    const other = await makeUser(t.deps.db);
    const res = await add(user._id, {
      body: 'Yalnızca metin',
      _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      user_id: other._id,
      userId: other._id,
      author_id: other._id,
      author: { _id: other._id, name: 'Sahte' },
      author_name: 'Sahte',
      created_at: '2000-01-01T00:00:00.000Z',
      createdAt: '2000-01-01T00:00:00.000Z',
    });
    expect(res.status).toBe(201);
    const [row] = await notesOf(user._id);
    expect(row).toMatchObject({
      user_id: user._id,
      author_id: adminId,
      author_name: 'Admin',
      body: 'Yalnızca metin',
    });
    expect(row._id).not.toBe('aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(row.created_at.startsWith('2000')).toBe(false);
    expect(await notesOf(other._id)).toEqual([]);
  });

  it('hears 404 for an account that does not exist or was deleted', async () => {
    expect((await add('0123456789abcdef01234567', { body: 'x' })).status).toBe(404);
    const gone = await makeUser(t.deps.db);
    expect((await t.call('DELETE', `/api/admin/users/${gone._id}`, { token: adminToken })).status).toBe(200);
    const res = await add(gone._id, { body: 'x' });
    expect([res.status, res.body.error.code]).toEqual([404, 'user_not_found']);
  });
});

describe('who may not', () => {
  it.each([
    ['a user', { role: 'user' as const }, 'forbidden'],
    ['a demoted admin', { role: 'user' as const }, 'forbidden'],
    ['a suspended admin', { role: 'admin' as const, status: 'suspended' as const }, 'suspended'],
    ['a banned admin', { role: 'admin' as const, status: 'banned' as const }, 'banned'],
  ])('%s reads or adds nothing', async (label, after, code) => {
    const user = await makeUser(t.deps.db);
    await add(user._id, { body: 'gizli not' });
    const caller = await makeUser(t.deps.db, { role: label === 'a user' ? 'user' : 'admin' });
    const token = await t.tokenFor(caller);
    // the account as it is now, not as its token was issued
    await t.deps.db.updateTable('users').set(after).where('_id', '=', caller._id).execute();
    const read = await t.call('GET', `/api/admin/users/${user._id}/notes`, { token });
    const write = await add(user._id, { body: 'yazmaya çalıştı' }, token);
    expect([read.status, read.body.error.code]).toEqual([403, code]);
    expect([write.status, write.body.error.code]).toEqual([403, code]);
    expect(JSON.stringify(read.body)).not.toContain('gizli not');
    expect((await notesOf(user._id)).map((n) => n.body)).toEqual(['gizli not']);
  });

  it('a visitor hears 401', async () => {
    const user = await makeUser(t.deps.db);
    expect((await t.call('GET', `/api/admin/users/${user._id}/notes`)).status).toBe(401);
    expect((await t.call('POST', `/api/admin/users/${user._id}/notes`, { body: { body: 'x' } })).status).toBe(
      401,
    );
  });
});

describe('at once and in bulk', () => {
  it('keeps every one of 20 notes sent at the same instant, each with its audit row', async () => {
    const user = await makeUser(t.deps.db);
    const replies = await burst(20, (i) => add(user._id, { body: `not ${i}` }));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(await notesOf(user._id)).toHaveLength(20);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'user.note')
      .where('target_id', '=', user._id)
      .execute();
    expect(audit).toHaveLength(20);
  });

  it('stops a flood at the cap with 409 note_limit, also when the last ones arrive together', async () => {
    const user = await makeUser(t.deps.db);
    const at = new Date().toISOString();
    const rows = Array.from({ length: NOTES_PER_USER_MAX - 3 }, (_, i) => ({
      _id: newId(),
      user_id: user._id,
      author_id: adminId,
      author_name: 'Admin',
      body: `eski ${i}`,
      created_at: at,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await t.deps.db
        .insertInto('user_notes')
        .values(rows.slice(i, i + 100))
        .execute();
    const replies = await burst(10, (i) => add(user._id, { body: `yeni ${i}` }));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of replies.filter((r) => r.status !== 201)) {
      expect([r.status, r.body.error.code]).toEqual([409, 'note_limit']);
    }
    expect(await notesOf(user._id)).toHaveLength(NOTES_PER_USER_MAX);
  });
});

describe("the account's deletion", () => {
  it('erases its notes, keeps the log of them, and the doctor finds none left', async () => {
    const user = await makeUser(t.deps.db);
    await add(user._id, { body: 'silinecek not' });
    expect((await t.call('DELETE', `/api/admin/users/${user._id}`, { token: adminToken })).status).toBe(200);
    expect(await notesOf(user._id)).toEqual([]);
    const log = await t.call('GET', `/api/admin/audit?action=user.note&targetId=${user._id}`, {
      token: adminToken,
    });
    expect(log.body.data.items).toHaveLength(1);
    expect(log.body.data.items[0].target.user).toMatchObject({ deleted: true, name: null });
    expect(await checkDeletedUsers(t.deps.db)).toEqual([]);
  });

  it('the doctor names a deleted account that still has notes', async () => {
    const user = await makeUser(t.deps.db);
    await add(user._id, { body: 'kalan not' });
    await t.deps.db
      .updateTable('users')
      .set({ deleted_at: new Date().toISOString() })
      .where('_id', '=', user._id)
      .execute();
    expect(await checkDeletedUsers(t.deps.db)).toContain(
      `deleted user ${user._id} still has 1 row(s) in user_notes`,
    );
    await t.deps.db.deleteFrom('user_notes').where('user_id', '=', user._id).execute();
  });
});
