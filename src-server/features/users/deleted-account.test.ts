import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateProfileSchema } from '../../contract/profile';
import { receiveImageForm } from '../../http/image-upload';
import { pngFile } from '../../storage/image-fixtures';
import { makeUser } from '../../testing/factories';
import { fund } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import { adjustBalance } from '../money/ledger';
import { multipart } from '../submissions/submission-test-helpers';
import { updateMyProfile } from './profile.service';
import { PROFILE_PHOTO_FORM } from './profile-photo';
import type { UserRow } from './users.repository';
import { touchLastActive, updateUser } from './users.repository';

// Every write path on an account, reached after the account was deleted by one that read it just
// before (a request signed in a moment earlier, an admin's edit on another node): each finds the
// account gone and writes nothing. The concurrent form runs in admin-users.delete-race.test.ts;
// here the late write is made to come last on purpose.
let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  ({ t, adminToken } = await createAdminTestApp());
});
afterAll(() => t.dispose());

const rowOf = (id: string) =>
  t.deps.db.selectFrom('users').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const ledgerOf = (id: string) =>
  t.deps.db.selectFrom('ledger').select(['kind', 'amount']).where('user_id', '=', id).orderBy('id').execute();

/** A user with a balance, read as a request signed in before the deletion would hold them. */
async function deletedUser(): Promise<{ stale: UserRow; deleted: UserRow }> {
  const stale = await makeUser(t.deps.db, { phone: '05551234567', bio: 'hello' });
  await fund(t.deps.db, stale._id, 2500);
  const res = await t.call('DELETE', `/api/admin/users/${stale._id}?forfeit=true`, { token: adminToken });
  expect(res.status).toBe(200);
  return { stale, deleted: await rowOf(stale._id) };
}

describe('a deleted account', () => {
  it('takes no profile save from a request signed in before the deletion (404, the photo not kept)', async () => {
    const { stale, deleted } = await deletedUser();
    const store = t.deps.files;
    const photosBefore = await store.list('images');
    const input = updateProfileSchema.parse({ name: 'Back again', phone: '05559876543', bio: 'still here' });
    await expect(updateMyProfile(t.deps, stale, input, '127.0.0.1')).rejects.toMatchObject({
      status: 404,
      code: 'user_not_found',
    });
    expect(await rowOf(stale._id)).toEqual(deleted);
    // with a photo: stored before the UPDATE, removed again when it finds no account
    const form = multipart([
      { name: 'profileImage', filename: 'me.png', type: 'image/png', data: pngFile(16, 16) },
    ]);
    const request = new Request('http://localhost/api/users/me', {
      method: 'PUT',
      headers: { 'Content-Type': form.contentType },
      body: form.body,
    });
    const upload = await receiveImageForm(t.deps, stale._id, request, PROFILE_PHOTO_FORM);
    try {
      await expect(updateMyProfile(t.deps, stale, input, '127.0.0.1', upload)).rejects.toMatchObject({
        status: 404,
      });
    } finally {
      await upload.discard();
    }
    expect(await rowOf(stale._id)).toEqual(deleted);
    expect(await store.list('images')).toEqual(photosBefore);
  });

  it('takes no balance adjustment: 404 and no ledger row', async () => {
    const { stale, deleted } = await deletedUser();
    const ledger = await ledgerOf(stale._id);
    expect(ledger.at(-1)?.kind).toBe('forfeit');
    await expect(
      t.deps.db.transaction().execute((tx) => adjustBalance(tx, stale._id, 12_345, 'some-admin')),
    ).rejects.toMatchObject({ status: 404, code: 'user_not_found' });
    expect(await ledgerOf(stale._id)).toEqual(ledger);
    expect(await rowOf(stale._id)).toEqual(deleted);
  });

  it("takes no sign-in's device or push id and no activity", async () => {
    const { stale, deleted } = await deletedUser();
    expect(await updateUser(t.deps.db, stale._id, { device_id: 'dev-1', one_signal_id: 'push-1' })).toBe(
      false,
    );
    expect(
      await touchLastActive(t.deps.db, stale._id, new Date().toISOString(), new Date().toISOString()),
    ).toBe(false);
    expect(await rowOf(stale._id)).toEqual(deleted);
  });

  it('takes no admin edit: 404, no audit row after the deletion', async () => {
    const { stale, deleted } = await deletedUser();
    const res = await t.call('PUT', `/api/admin/users/${stale._id}`, {
      token: adminToken,
      body: { name: 'Revived', email: stale.email, status: 'active', balance: 10 },
    });
    expect([res.status, res.body.error?.code]).toEqual([404, 'user_not_found']);
    expect(await rowOf(stale._id)).toEqual(deleted);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', stale._id)
      .orderBy('id')
      .execute();
    expect(audit.at(-1)?.action).toBe('user.delete');
  });
});
