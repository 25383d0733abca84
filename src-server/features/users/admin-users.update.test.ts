import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../testing/factories';
import { fund } from '../../testing/money-factories';
import { createAdminTestApp, type TestApp } from '../../testing/test-app';
import { runMoneyChecks } from '../money/doctor';
import type { UserRow } from '../users/users.repository';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
beforeAll(async () => {
  ({ t, admin, adminToken } = await createAdminTestApp());
});
afterEach(async () => {
  // every ledger row the edits wrote explains a balance
  expect(await runMoneyChecks(t.deps.db)).toEqual([]);
});
afterAll(() => t.dispose());

const put = (id: string, body: unknown, token = adminToken) =>
  t.call('PUT', `/api/admin/users/${id}`, { body, token });
const row = (id: string) =>
  t.deps.db.selectFrom('users').selectAll().where('_id', '=', id).executeTakeFirstOrThrow();
const ledger = (id: string) =>
  t.deps.db.selectFrom('ledger').select(['amount', 'kind', 'actor_id']).where('user_id', '=', id).execute();
const base = (u: UserRow) => ({ name: u.name, email: u.email });

describe('PUT /api/admin/users/{id} refuses', () => {
  it.each<[string, (u: UserRow) => unknown, string, string, string]>([
    [
      'no name',
      (u) => ({ email: u.email }),
      'name_email_required',
      'name',
      'Name and email fields are required',
    ],
    [
      'a blank name',
      (u) => ({ name: '  ', email: u.email }),
      'name_email_required',
      'name',
      'Name and email fields are required',
    ],
    [
      'no email',
      (u) => ({ name: u.name }),
      'name_email_required',
      'email',
      'Name and email fields are required',
    ],
    [
      'a numeric name',
      (u) => ({ name: 5, email: u.email }),
      'name_email_required',
      'name',
      'Name and email fields are required',
    ],
    [
      'a malformed email',
      (u) => ({ name: u.name, email: 'not-mail' }),
      'validation_error',
      'email',
      'Please enter a valid email address',
    ],
    [
      'a ban without a reason',
      (u) => ({ ...base(u), status: 'banned' }),
      'ban_reason_required',
      'banReason',
      'Ban reason must be specified',
    ],
    [
      'a ban with a blank reason',
      (u) => ({ ...base(u), status: 'banned', banReason: '   ' }),
      'ban_reason_required',
      'banReason',
      'Ban reason must be specified',
    ],
    [
      'a negative balance',
      (u) => ({ ...base(u), balance: -1 }),
      'invalid_amount',
      'balance',
      'Please enter a valid amount',
    ],
    [
      'a balance finer than a kuruş',
      (u) => ({ ...base(u), balance: 1.005 }),
      'invalid_amount',
      'balance',
      'Please enter a valid amount',
    ],
    [
      'a balance given as text',
      (u) => ({ ...base(u), balance: '10' }),
      'invalid_amount',
      'balance',
      'Please enter a valid amount',
    ],
    [
      'an unknown role',
      (u) => ({ ...base(u), role: 'root' }),
      'validation_error',
      'role',
      'This value is invalid',
    ],
    [
      'an unknown status',
      (u) => ({ ...base(u), status: 'deleted' }),
      'validation_error',
      'status',
      'This value is invalid',
    ],
    [
      'a password under 6 characters',
      (u) => ({ ...base(u), password: '12345' }),
      'validation_error',
      'password',
      'Password must be at least 6 characters',
    ],
    [
      'a password that is not text',
      (u) => ({ ...base(u), password: 123456 }),
      'validation_error',
      'password',
      'This value is invalid',
    ],
  ])('%s with a 422 and changes nothing', async (_label, body, code, field, message) => {
    const user = await makeUser(t.deps.db, { name: 'Unchanged' });
    const res = await put(user._id, body(user));
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({ code, message, errors: { [field]: message } });
    expect(await row(user._id)).toEqual(user);
  });

  it('an email another account holds (in any case) with 409 email_in_use', async () => {
    await makeUser(t.deps.db, { email: 'taken@example.test' });
    const user = await makeUser(t.deps.db);
    const res = await put(user._id, { name: 'X', email: ' TAKEN@Example.test ' });
    expect([res.status, res.body.error.code]).toEqual([409, 'email_in_use']);
    expect(res.body.error.message).toBe('This email address is already in use');
  });

  it('an unknown or deleted user with 404 user_not_found', async () => {
    const res = await put('0123456789abcdef01234567', { name: 'A', email: 'a@example.test' });
    expect([res.status, res.body.error.code]).toEqual([404, 'user_not_found']);
  });
});

describe('PUT /api/admin/users/{id}', () => {
  it('changes name, email, role and status and answers the detail', async () => {
    const user = await makeUser(t.deps.db);
    const res = await put(user._id, {
      name: ' Yeni Ad ',
      email: 'Yeni@Example.test',
      role: 'admin',
      status: 'suspended',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: user._id,
      name: 'Yeni Ad',
      email: 'yeni@example.test',
      role: 'admin',
      status: 'suspended',
      banReason: null,
      totalEarned: 0,
    });
  });

  it('keeps its own email without a conflict', async () => {
    const user = await makeUser(t.deps.db);
    expect((await put(user._id, { name: 'Same', email: user.email.toUpperCase() })).status).toBe(200);
  });

  it('writes a balance change as a ledger adjustment by the admin', async () => {
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 1000, admin._id);
    const up = await put(user._id, { ...base(user), balance: 25.75 });
    expect(up.body.data.balance).toBe(25.75);
    const down = await put(user._id, { ...base(user), balance: 0 });
    expect(down.body.data.balance).toBe(0);
    expect(await ledger(user._id)).toEqual([
      { amount: 1000, kind: 'adjustment', actor_id: admin._id },
      { amount: 1575, kind: 'adjustment', actor_id: admin._id },
      { amount: -2575, kind: 'adjustment', actor_id: admin._id },
    ]);
  });

  it('writes no ledger row when the balance sent is the current one', async () => {
    const user = await makeUser(t.deps.db);
    await fund(t.deps.db, user._id, 500, admin._id);
    await put(user._id, { ...base(user), balance: 5 });
    expect(await ledger(user._id)).toHaveLength(1);
  });

  it('bans with a reason, which the user sees on their next request', async () => {
    const user = await makeUser(t.deps.db);
    const token = await t.tokenFor(user);
    const res = await put(user._id, { ...base(user), status: 'banned', banReason: ' Sahte kanıt ' });
    expect(res.body.data).toMatchObject({ status: 'banned', banReason: 'Sahte kanıt' });
    const me = await t.call('GET', '/api/users/me', { token });
    expect(me.status).toBe(403);
    expect(me.body.error).toMatchObject({ code: 'banned', banReason: 'Sahte kanıt' });
  });

  it('keeps a banned user banned with the stored reason when only the name changes', async () => {
    const user = await makeUser(t.deps.db, { status: 'banned', ban_reason: 'old reason' });
    const res = await put(user._id, { name: 'Renamed', email: user.email });
    expect(res.body.data).toMatchObject({ name: 'Renamed', status: 'banned', banReason: 'old reason' });
  });

  it('clears the ban reason when the user is made active again', async () => {
    const user = await makeUser(t.deps.db, { status: 'banned', ban_reason: 'x' });
    const res = await put(user._id, { ...base(user), status: 'active', banReason: 'x' });
    expect(res.body.data).toMatchObject({ status: 'active', banReason: null });
  });

  it('sets a new password (hashed), and the old one stops working', async () => {
    const user = await makeUser(t.deps.db, { email: 'newpass@example.test' });
    expect((await put(user._id, { ...base(user), password: 'brand-new-1' })).status).toBe(200);
    expect((await row(user._id)).password_hash).toMatch(/^\$argon2id\$/);
    const login = (password: string) =>
      t.call('POST', '/api/auth/login', { body: { email: 'newpass@example.test', password } });
    expect((await login('brand-new-1')).status).toBe(200);
    expect((await login('secret123')).status).toBe(401);
  });

  it.each([undefined, null, ''])('keeps the password when it is sent as %j', async (password) => {
    const user = await makeUser(t.deps.db);
    await put(user._id, { ...base(user), password });
    expect((await row(user._id)).password_hash).toBe(user.password_hash);
  });
});
