import { describe, expect, it } from 'vitest';
import { checkUserEdit, detailStatuses, parseTl, type UserEditValues, userEditValues } from './user-edit';

const initial: UserEditValues = userEditValues({
  name: 'Ayşe Yılmaz',
  email: 'ayse@example.test',
  status: 'active',
  banReason: null,
  balance: 12.5,
  role: 'user',
});
const LIST = { withRole: true, withPassword: true };
const DETAIL = { withRole: false, withPassword: false };

describe('userEditValues', () => {
  it('shows the balance with two decimals and a missing ban reason as blank', () => {
    expect(initial.balance).toBe('12.50');
    expect(initial.banReason).toBe('');
    expect(initial.password).toBe('');
  });
});

describe('parseTl', () => {
  it.each([
    ['12.5', 12.5],
    [' 12,50 ', 12.5],
    ['0', 0],
    ['-3', -3],
  ])('reads %j', (text, value) => {
    expect(parseTl(text)).toBe(value);
  });

  it.each(['', ' ', 'abc', '1e3', '1.2.3', '12,5,0'])('refuses %j', (text) => {
    expect(parseTl(text)).toBeNaN();
  });
});

describe('checkUserEdit', () => {
  it('sends the unchanged balance nowhere, so a reward paid meanwhile stays', () => {
    expect(checkUserEdit({ ...initial, name: ' Ayşe Y. ' }, initial, LIST)).toEqual({
      ok: true,
      body: { name: 'Ayşe Y.', email: 'ayse@example.test', status: 'active', role: 'user' },
    });
  });

  it('sends a changed balance in TL', () => {
    const result = checkUserEdit({ ...initial, balance: '40,25' }, initial, LIST);
    expect(result).toMatchObject({ ok: true, body: { balance: 40.25 } });
  });

  it('requires the name and the email ("Name and email fields are required")', () => {
    expect(checkUserEdit({ ...initial, name: '  ' }, initial, LIST)).toMatchObject({
      ok: false,
      problem: { field: 'name', key: 'userEditNameRequired' },
    });
    expect(checkUserEdit({ ...initial, email: '' }, initial, LIST)).toMatchObject({
      ok: false,
      problem: { field: 'email', key: 'userEditNameRequired' },
    });
  });

  it('refuses a malformed email with the shared field message', () => {
    expect(checkUserEdit({ ...initial, email: 'not-an-email' }, initial, LIST)).toMatchObject({
      ok: false,
      problem: { field: 'email', key: null, message: 'Please enter a valid email address' },
    });
  });

  it('requires a non-blank ban reason for a ban ("Ban reason must be specified")', () => {
    expect(checkUserEdit({ ...initial, status: 'banned', banReason: '   ' }, initial, LIST)).toMatchObject({
      ok: false,
      problem: { field: 'banReason', key: 'userEditBanReasonRequired' },
    });
  });

  it('sends the trimmed ban reason with a ban, and none otherwise', () => {
    expect(
      checkUserEdit({ ...initial, status: 'banned', banReason: ' Spam proofs ' }, initial, LIST),
    ).toMatchObject({ ok: true, body: { status: 'banned', banReason: 'Spam proofs' } });
    const unbanned = checkUserEdit({ ...initial, status: 'active', banReason: 'old reason' }, initial, LIST);
    expect(unbanned.ok && unbanned.body.banReason).toBeUndefined();
  });

  it.each(['-1', 'abc', '', '1.234'])('refuses the balance %j', (balance) => {
    expect(checkUserEdit({ ...initial, balance }, initial, LIST)).toMatchObject({
      ok: false,
      problem: { field: 'balance', key: 'balanceInvalid' },
    });
  });

  it('accepts a zero balance', () => {
    expect(checkUserEdit({ ...initial, balance: '0' }, initial, LIST)).toMatchObject({
      ok: true,
      body: { balance: 0 },
    });
  });

  it('sends a new password only when one is typed, and checks its length', () => {
    const none = checkUserEdit(initial, initial, LIST);
    expect(none.ok && 'password' in none.body).toBe(false);
    expect(checkUserEdit({ ...initial, password: 'abc' }, initial, LIST)).toMatchObject({
      ok: false,
      problem: { field: 'password', key: null, message: 'Password must be at least 6 characters' },
    });
    expect(checkUserEdit({ ...initial, password: 'secret1' }, initial, LIST)).toMatchObject({
      ok: true,
      body: { password: 'secret1' },
    });
  });

  it('leaves the role and the password out of the detail form', () => {
    expect(checkUserEdit({ ...initial, role: 'admin', password: 'secret1' }, initial, DETAIL)).toEqual({
      ok: true,
      body: { name: 'Ayşe Yılmaz', email: 'ayse@example.test', status: 'active' },
    });
  });
});

describe('detailStatuses', () => {
  it('offers active and banned', () => {
    expect(detailStatuses('active')).toEqual(['active', 'banned']);
    expect(detailStatuses('banned')).toEqual(['active', 'banned']);
  });

  it('keeps a suspension visible instead of lifting it on save', () => {
    expect(detailStatuses('suspended')).toEqual(['active', 'suspended', 'banned']);
  });
});
