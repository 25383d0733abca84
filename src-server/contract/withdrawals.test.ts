import { describe, expect, it } from 'vitest';
import { makeIban } from '../testing/money-factories';
import {
  checkWithdrawalRequest,
  formatLiraPlain,
  isValidPapara,
  isValidTurkishIban,
  maskAccountNumber,
  normalizeIban,
} from './withdrawals';

const rules = { minimumPayout: 2000, balance: 10_000, methods: ['papara', 'iban'] as const };
const valid = {
  amount: 25,
  paymentMethod: 'papara',
  accountDetails: { fullName: 'Ayşe Yılmaz', accountNumber: '1234567890' },
};

describe('isValidTurkishIban', () => {
  it.each<[string, string, boolean]>([
    ['accepts the well-known valid example', 'TR330006100519786457841326', true],
    ['accepts it with spaces and in lower case', 'tr33 0006 1005 1978 6457 8413 26', true],
    ['accepts a generated one', makeIban('0001000000000000000012'), true],
    ['refuses a wrong check digit', 'TR340006100519786457841326', false],
    ['refuses a changed account digit', 'TR330006100519786457841327', false],
    ['refuses 23 digits', 'TR33000610051978645784132', false],
    ['refuses 25 digits', 'TR3300061005197864578413261', false],
    ['refuses another country', 'DE89370400440532013000', false],
    ['refuses letters inside', 'TR33000610051978645784132A', false],
    ['refuses an empty text', '', false],
  ])('%s', (_name, iban, ok) => {
    expect(isValidTurkishIban(iban)).toBe(ok);
  });

  it('normalises by dropping spaces and upper-casing', () => {
    expect(normalizeIban(' tr33 0006 1005 1978 6457 8413 26 ')).toBe('TR330006100519786457841326');
  });
});

describe('isValidPapara', () => {
  it.each<[string, boolean]>([
    ['1234567890', true],
    ['123 456 7890', true],
    ['123456789', false],
    ['12345678901', false],
    ['12345a7890', false],
    ['', false],
  ])('%s -> %s', (value, ok) => {
    expect(isValidPapara(value)).toBe(ok);
  });
});

describe('maskAccountNumber', () => {
  it('keeps only the last four characters', () => {
    expect(maskAccountNumber('1234567890')).toBe('******7890');
    expect(maskAccountNumber('TR330006100519786457841326')).toBe(`${'*'.repeat(22)}1326`);
    expect(maskAccountNumber('123')).toBe('123');
  });
});

describe('formatLiraPlain', () => {
  it.each<[number, string]>([
    [2000, '₺20.00'],
    [2050, '₺20.50'],
    [5, '₺0.05'],
    [123456, '₺1234.56'],
    [-150, '-₺1.50'],
  ])('%i kuruş is %s', (kurus, text) => {
    expect(formatLiraPlain(kurus)).toBe(text);
  });
});

describe('checkWithdrawalRequest', () => {
  it('accepts a valid request and returns kuruş and a normalised account', () => {
    const iban = {
      ...valid,
      paymentMethod: 'iban',
      accountDetails: { fullName: ' Ali ', accountNumber: 'tr33 0006 1005 1978 6457 8413 26' },
    };
    expect(checkWithdrawalRequest(iban, rules)).toEqual({
      ok: true,
      value: {
        amount: 2500,
        paymentMethod: 'iban',
        fullName: 'Ali',
        accountNumber: 'TR330006100519786457841326',
      },
    });
  });

  it.each<[string, unknown, string, string]>([
    ['no body at all', null, 'invalid_amount', 'amount'],
    ['an invalid amount before everything else', { amount: 'x' }, 'invalid_amount', 'amount'],
    ['a small amount before the account details', { amount: 10 }, 'below_minimum', 'amount'],
    ['a large amount before the account details', { amount: 101 }, 'insufficient_balance', 'amount'],
    [
      'missing details before the method',
      { amount: 20 },
      'account_details_required',
      'accountDetails.fullName',
    ],
    [
      'a missing account number',
      { amount: 20, accountDetails: { fullName: 'A' } },
      'account_details_required',
      'accountDetails.accountNumber',
    ],
    [
      'a blank full name',
      { amount: 20, accountDetails: { fullName: '   ', accountNumber: '1' } },
      'account_details_required',
      'accountDetails.fullName',
    ],
    [
      'a missing method after the details',
      { amount: 20, accountDetails: { fullName: 'A', accountNumber: '1' } },
      'method_unavailable',
      'paymentMethod',
    ],
  ])('checks in order: %s', (_name, body, code, field) => {
    const result = checkWithdrawalRequest(body, rules);
    expect(result.ok).toBe(false);
    if (!result.ok) expect([result.problem.code, result.problem.field]).toEqual([code, field]);
  });

  it('puts the minimum in lira into the below_minimum message', () => {
    const result = checkWithdrawalRequest({ ...valid, amount: 19.99 }, rules);
    expect(result).toMatchObject({
      ok: false,
      problem: { message: 'The minimum payout amount is ₺20.00', params: { amount: '₺20.00' } },
    });
  });

  it('refuses a method the settings do not offer', () => {
    const result = checkWithdrawalRequest(valid, { ...rules, methods: ['iban'] });
    expect(result).toMatchObject({ ok: false, problem: { code: 'method_unavailable' } });
  });
});
