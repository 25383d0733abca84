import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../http/env';
import { signToken, verifyToken } from './token';

const secret = new TextEncoder().encode('a-test-secret-of-at-least-thirty-two-bytes');
const user = {
  _id: 'u1',
  name: 'Ali',
  email: 'ali@example.test',
  role: 'user',
  status: 'active',
  ban_reason: null,
} as UserRow;

describe('signToken and verifyToken', () => {
  it('round-trip the user id', async () => {
    expect(await verifyToken(await signToken(user, false, secret), secret)).toBe('u1');
  });

  it.each([
    ['another secret', async () => signToken(user, false, new TextEncoder().encode('x'.repeat(40)))],
    ['a token cut short', async () => (await signToken(user, false, secret)).slice(0, -3)],
    ['an empty string', async () => ''],
    ['three dots', async () => '...'],
  ])('give null for %s', async (_label, make) => {
    expect(await verifyToken(await make(), secret)).toBeNull();
  });
});
