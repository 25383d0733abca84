import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../contract/schemas';
import { isPostgres } from '../../db/dialect';
import { isConstraintViolation } from '../../db/errors';
import { makeUser } from '../../testing/factories';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let n = 0;
const freshEmail = () => `new-user-${++n}@example.test`;
const valid = () => ({ name: 'Ayşe Yılmaz', email: freshEmail(), password: 'secret123' });
const register = (body: unknown) => t.call('POST', '/api/auth/register', { body });

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.dispose();
});

describe('POST /api/auth/register', () => {
  it('creates an active user and replies with success, a token and the user without its hash', async () => {
    const input = { ...valid(), confirmPassword: 'secret123' };
    const res = await register(input);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      token: expect.any(String),
      data: {
        _id: expect.any(String),
        name: 'Ayşe Yılmaz',
        email: input.email,
        role: 'user',
        status: 'active',
        banReason: null,
        balance: 0,
        pendingBalance: 0,
        totalEarnings: 0,
      },
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/password_hash|passwordHash|\$argon2/);
    expect(text).not.toContain('secret123');
    const me = await t.call('GET', '/api/users/me', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.data._id).toBe(res.body.data._id);
  });

  it('stores the password as an argon2id hash, never as given', async () => {
    const input = valid();
    await register(input);
    const row = await t.deps.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', input.email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('trims the name and stores the email trimmed and in lower case', async () => {
    const res = await register({
      name: '  Mehmet  ',
      email: '  MiXeD.Case@Example.TEST ',
      password: 'secret123',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Mehmet', email: 'mixed.case@example.test' });
  });

  it('stores device_id and oneSignalId', async () => {
    const res = await register({ ...valid(), device_id: 'device-42', oneSignalId: 'player-7' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ device_id: 'device-42', oneSignalId: 'player-7' });
    const row = await t.deps.db
      .selectFrom('users')
      .select(['device_id', 'one_signal_id'])
      .where('_id', '=', res.body.data._id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ device_id: 'device-42', one_signal_id: 'player-7' });
  });

  it('ignores role, status, balance and every other field it does not name (mass assignment)', async () => {
    const res = await register({
      ...valid(),
      _id: 'chosen-id',
      role: 'admin',
      status: 'banned',
      banReason: 'x',
      ban_reason: 'x',
      balance: 1_000_000,
      total_earned: 5000,
      totalEarnings: 5000,
      password_hash: 'plain',
      deleted_at: '2020-01-01T00:00:00.000Z',
      created_at: '2000-01-01T00:00:00.000Z',
    });
    expect(res.status).toBe(201);
    const row = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('_id', '=', res.body.data._id)
      .executeTakeFirstOrThrow();
    expect(row._id).not.toBe('chosen-id');
    expect(row).toMatchObject({
      role: 'user',
      status: 'active',
      ban_reason: null,
      balance: 0,
      total_earned: 0,
    });
    expect(row.deleted_at).toBeNull();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.created_at).not.toBe('2000-01-01T00:00:00.000Z');
  });

  describe('field rules', () => {
    const ok = { name: 'Ali', email: 'rules@example.test', password: 'secret123' };
    it.each([
      ['a missing name', { ...ok, name: undefined }, 'name', FIELD_MESSAGES.nameRequired],
      ['a blank name', { ...ok, name: '   ' }, 'name', FIELD_MESSAGES.nameRequired],
      ['a name of 101 characters', { ...ok, name: 'x'.repeat(101) }, 'name', FIELD_MESSAGES.tooLong],
      ['a missing email', { ...ok, email: undefined }, 'email', FIELD_MESSAGES.emailRequired],
      ['an empty email', { ...ok, email: '  ' }, 'email', FIELD_MESSAGES.emailRequired],
      ['an email without @', { ...ok, email: 'not-an-email' }, 'email', FIELD_MESSAGES.emailInvalid],
      ['an email without a domain', { ...ok, email: 'ali@' }, 'email', FIELD_MESSAGES.emailInvalid],
      [
        'an email with spaces inside',
        { ...ok, email: 'a li@example.test' },
        'email',
        FIELD_MESSAGES.emailInvalid,
      ],
      ['a missing password', { ...ok, password: undefined }, 'password', FIELD_MESSAGES.passwordRequired],
      ['an empty password', { ...ok, password: '' }, 'password', FIELD_MESSAGES.passwordRequired],
      [
        'a password of 5 characters',
        { ...ok, password: '12345' },
        'password',
        FIELD_MESSAGES.passwordTooShort,
      ],
      [
        'a confirmPassword that differs',
        { ...ok, confirmPassword: 'secret124' },
        'confirmPassword',
        'Passwords do not match',
      ],
    ])('refuses %s with 422 and the field message', async (_label, body, field, message) => {
      const res = await register(body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'validation_error', message: expect.any(String), errors: expect.any(Object) },
      });
      expect(res.body.error.errors[field]).toBe(message);
      const row = await t.deps.db
        .selectFrom('users')
        .select('_id')
        .where('email', '=', 'rules@example.test')
        .executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it('reports every invalid field at once, the first one as the message', async () => {
      const res = await register({ name: '', email: 'x', password: '1' });
      expect(res.status).toBe(422);
      expect(res.body.error.errors).toEqual({
        name: FIELD_MESSAGES.nameRequired,
        email: FIELD_MESSAGES.emailInvalid,
        password: FIELD_MESSAGES.passwordTooShort,
      });
      expect(res.body.error.message).toBe(FIELD_MESSAGES.nameRequired);
    });

    it('accepts a password of exactly 6 characters', async () => {
      const res = await register({ ...valid(), password: '123456', confirmPassword: '123456' });
      expect(res.status).toBe(201);
    });
  });

  describe('a duplicate email', () => {
    it.each([
      ['the same address', (e: string) => e],
      ['the address in upper case', (e: string) => e.toUpperCase()],
      ['the address with surrounding spaces', (e: string) => `  ${e}\t`],
      ['the address in mixed case with spaces', (e: string) => ` ${e[0].toUpperCase()}${e.slice(1)} `],
    ])('is refused with 409 email_in_use when it is %s', async (_label, variant) => {
      const first = valid();
      expect((await register(first)).status).toBe(201);
      const res = await register({ ...valid(), email: variant(first.email) });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'email_in_use', message: 'This email address is already in use' },
      });
      const rows = await t.deps.db
        .selectFrom('users')
        .select('_id')
        .where('email', '=', first.email)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('is refused when an account of that address was created another way (mixed case in the row)', async () => {
      const made = await makeUser(t.deps.db, { email: 'Stored.Mixed@Example.TEST' }).catch((e: unknown) => e);
      // PostgreSQL has no NOCASE: a CHECK keeps every stored address lower-case instead
      if (isPostgres(t.deps.db)) return expect(isConstraintViolation(made)).toBe(true);
      const res = await register({ ...valid(), email: 'stored.mixed@example.test' });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('email_in_use');
    });

    it('is refused when the account of that address was deleted', async () => {
      await makeUser(t.deps.db, { email: 'gone@example.test', deleted_at: new Date().toISOString() });
      const res = await register({ ...valid(), email: 'gone@example.test' });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('email_in_use');
    });

    it('makes exactly one account when two registrations of one address race', async () => {
      const email = freshEmail();
      const replies = await Promise.all(
        // two at once: one address may have two password hashes in flight (the fair queue)
        Array.from({ length: 2 }, () => register({ name: 'Racer', email, password: 'secret123' })),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
      const rows = await t.deps.db.selectFrom('users').select('_id').where('email', '=', email).execute();
      expect(rows).toHaveLength(1);
    });
  });
});
