import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../users/users.repository';
import { passwordStamp, signToken, tokenMatchesPassword, verifyToken } from './token';

const secret = new TextEncoder().encode('a-test-secret-of-at-least-thirty-two-bytes');
const user = {
  _id: 'u1',
  name: 'Ali',
  email: 'ali@example.test',
  role: 'user',
  status: 'active',
  ban_reason: null,
  password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
} as UserRow;

describe('signToken and verifyToken', () => {
  it.each([
    [false, false],
    [true, true],
  ])('round-trip the user id and the remember-me choice (%s)', async (rememberMe, expected) => {
    const session = await verifyToken(await signToken(user, rememberMe, secret, 'sid1'), secret);
    expect(session).toMatchObject({ userId: 'u1', sessionId: 'sid1', rememberMe: expected });
    expect(session && tokenMatchesPassword(session, user, secret)).toBe(true);
  });

  it('stops matching once the password hash changes', async () => {
    const session = await verifyToken(await signToken(user, true, secret, 'sid1'), secret);
    const changed = { ...user, password_hash: '$argon2id$v=19$m=19456,t=2,p=1$b3RoZXI$aGFzaA' };
    expect(session && tokenMatchesPassword(session, changed, secret)).toBe(false);
  });

  it('keys the stamp with the secret, so the token tells nothing of the hash', () => {
    const other = new TextEncoder().encode('another-secret-of-at-least-thirty-two-b');
    expect(passwordStamp(user.password_hash, secret)).not.toBe(passwordStamp(user.password_hash, other));
    expect(passwordStamp(user.password_hash, secret)).not.toContain('argon2');
  });

  it.each([
    ['another secret', async () => signToken(user, false, new TextEncoder().encode('x'.repeat(40)), 'sid1')],
    ['a token cut short', async () => (await signToken(user, false, secret, 'sid1')).slice(0, -3)],
    ['an empty string', async () => ''],
    ['three dots', async () => '...'],
  ])('give null for %s', async (_label, make) => {
    expect(await verifyToken(await make(), secret)).toBeNull();
  });

  it('gives null for a token signed before password stamps existed (no pwv claim)', async () => {
    const { SignJWT } = await import('jose');
    const old = await new SignJWT({ name: 'Ali', role: 'user' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('u1')
      .setIssuedAt()
      .setExpirationTime('1d')
      .sign(secret);
    expect(await verifyToken(old, secret)).toBeNull();
  });
});

describe('verifyToken, checked once per token', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses a token it already verified once it expires, and one cut from it at any time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'));
    const token = await signToken(user, false, secret, 'sid-expiry');
    expect(await verifyToken(token, secret)).toMatchObject({ sessionId: 'sid-expiry' });
    // still within the day: the remembered answer
    vi.setSystemTime(new Date('2026-03-02T09:59:59Z'));
    expect(await verifyToken(token, secret)).toMatchObject({ sessionId: 'sid-expiry' });
    expect(await verifyToken(`${token.slice(0, -2)}AA`, secret)).toBeNull();
    // the expiry second itself ends it, as jose decides (and it stays ended)
    vi.setSystemTime(new Date('2026-03-02T10:00:00Z'));
    expect(await verifyToken(token, secret)).toBeNull();
    vi.setSystemTime(new Date('2026-03-01T11:00:00Z'));
    expect(await verifyToken(token, secret)).toMatchObject({ sessionId: 'sid-expiry' });
  });

  it('keeps the answer per secret: a token verified under one secret is refused under another', async () => {
    const token = await signToken(user, false, secret, 'sid-secret');
    expect(await verifyToken(token, secret)).not.toBeNull();
    expect(await verifyToken(token, new TextEncoder().encode('y'.repeat(40)))).toBeNull();
  });
});
