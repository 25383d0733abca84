import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  emailSchema,
  FIELD_MESSAGES,
  fieldErrors,
  fieldMessageKey,
  loginSchema,
  registerSchema,
} from './schemas';

describe('emailSchema', () => {
  it.each([
    ['a@example.test', 'a@example.test'],
    ['  A.B@Example.TEST  ', 'a.b@example.test'],
    ['\tUPPER@EXAMPLE.TEST\n', 'upper@example.test'],
  ])('reads %j as %j', (input, output) => {
    expect(emailSchema.parse(input)).toBe(output);
  });

  it.each(['', '   ', 'plain', 'a@', '@example.test', 'a b@example.test', `${'a'.repeat(250)}@e.test`])(
    'refuses %j',
    (input) => {
      expect(emailSchema.safeParse(input).success).toBe(false);
    },
  );
});

describe('registerSchema', () => {
  const base = { name: ' Ali ', email: 'Ali@Example.TEST', password: 'secret123' };

  it('keeps only the fields it names, trimmed and normalised', () => {
    const parsed = registerSchema.parse({ ...base, role: 'admin', balance: 5, status: 'banned' });
    expect(parsed).toEqual({
      name: 'Ali',
      email: 'ali@example.test',
      password: 'secret123',
      device_id: null,
      oneSignalId: null,
      // the UI's language at registration, Turkish when none was sent
      language: 'tr',
    });
  });

  it('takes confirmPassword as optional, but it must match when sent', () => {
    expect(registerSchema.safeParse({ ...base, confirmPassword: 'secret123' }).success).toBe(true);
    const res = registerSchema.safeParse({ ...base, confirmPassword: 'other' });
    expect(res.success).toBe(false);
    if (!res.success) expect(fieldErrors(res.error)).toEqual({ confirmPassword: 'Passwords do not match' });
  });

  it.each([
    ['an empty device_id', { device_id: '' }, { device_id: null }],
    ['a null oneSignalId', { oneSignalId: null }, { oneSignalId: null }],
    ['a device_id', { device_id: 'd-1' }, { device_id: 'd-1' }],
  ])('reads %s', (_label, extra, expected) => {
    expect(registerSchema.parse({ ...base, ...extra })).toMatchObject(expected);
  });

  it('refuses a device_id longer than 200 characters', () => {
    const res = registerSchema.safeParse({ ...base, device_id: 'd'.repeat(201) });
    expect(res.success).toBe(false);
    if (!res.success) expect(fieldErrors(res.error).device_id).toBe(FIELD_MESSAGES.tooLong);
  });

  it('takes a password as typed, never trimmed (six spaces are six characters)', () => {
    expect(registerSchema.safeParse({ ...base, password: '      ' }).success).toBe(true);
  });
});

describe('loginSchema', () => {
  it('defaults rememberMe to false', () => {
    expect(loginSchema.parse({ email: 'a@example.test', password: 'secret123' }).rememberMe).toBe(false);
  });

  it('refuses a password shorter than 6 characters', () => {
    const res = loginSchema.safeParse({ email: 'a@example.test', password: 'abc' });
    expect(res.success).toBe(false);
    if (!res.success) expect(fieldErrors(res.error)).toEqual({ password: FIELD_MESSAGES.passwordTooShort });
  });
});

describe('fieldErrors', () => {
  it('keeps the first message per field and names root issues "_"', () => {
    const schema = z.object({
      a: z.string().min(2, 'first').min(3, 'second'),
      b: z.object({ c: z.number('num') }),
    });
    const res = schema.safeParse({ a: 'x', b: { c: 'no' } });
    expect(res.success).toBe(false);
    if (!res.success) expect(fieldErrors(res.error)).toEqual({ a: 'first', 'b.c': 'num' });
    const root = z.string('root message').safeParse(5);
    if (!root.success) expect(fieldErrors(root.error)).toEqual({ _: 'root message' });
  });
});

describe('fieldMessageKey', () => {
  it('maps every English field message back to its key, and nothing else', () => {
    for (const [key, message] of Object.entries(FIELD_MESSAGES)) expect(fieldMessageKey(message)).toBe(key);
    expect(fieldMessageKey('Something else')).toBeUndefined();
  });
});
