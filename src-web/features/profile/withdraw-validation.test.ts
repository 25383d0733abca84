import { PAYMENT_METHODS } from '@contract/constants';
import { describe, expect, it } from 'vitest';
import {
  offeredMethods,
  validateSavedWithdraw,
  validateWithdraw,
  type WithdrawLimits,
  type WithdrawValues,
  withdrawProblem,
} from './withdraw-validation';

const limits: WithdrawLimits = { minimumPayout: 20, balance: 50.5, methods: PAYMENT_METHODS };
const good: WithdrawValues = {
  amount: '30',
  paymentMethod: 'papara',
  fullName: 'Deniz Yılmaz',
  accountNumber: '1234567890',
};
// a valid Turkish IBAN (mod-97 check 1)
const IBAN = 'TR33 0006 1005 1978 6457 8413 26';

function problemOf(values: Partial<WithdrawValues>, l = limits) {
  const result = validateWithdraw({ ...good, ...values }, l);
  return result.ok ? null : result.problem;
}

describe('the withdraw form check', () => {
  it.each([
    ['empty', ''],
    ['zero', '0'],
    ['negative', '-5'],
    ['not a number', 'abc'],
    ['finer than a kuruş', '25.001'],
  ])('calls a %s amount invalid', (_label, amount) => {
    expect(problemOf({ amount })).toEqual({ field: 'amount', key: 'profile:profilePageInvalidAmount' });
  });

  it('names the minimum in lira below it', () => {
    expect(problemOf({ amount: '19.99' })).toEqual({
      field: 'amount',
      key: 'profile:profilePageMinimumAmount',
      params: { amount: '₺20,00' },
    });
  });

  it('refuses more than the balance, to the kuruş', () => {
    expect(problemOf({ amount: '50.51' })).toEqual({
      field: 'amount',
      key: 'profile:profilePageInsufficientFunds',
    });
    expect(problemOf({ amount: '50.50' })).toBeNull();
  });

  it('checks the amount rules before the account details, in the spec order', () => {
    expect(problemOf({ amount: '5', fullName: '', accountNumber: '' })?.key).toBe(
      'profile:profilePageMinimumAmount',
    );
    expect(problemOf({ amount: '500', fullName: '' })?.key).toBe('profile:profilePageInsufficientFunds');
  });

  it.each([
    ['fullName', { fullName: '  ' }],
    ['accountNumber', { accountNumber: '' }],
  ] as const)('asks for the missing %s', (field, values) => {
    expect(problemOf(values)).toEqual({ field, key: 'profile:profilePageAccountDetailsRequired' });
  });

  it('checks the account number by the method, with the catalogue messages', () => {
    expect(problemOf({ accountNumber: '12345' })).toEqual({
      field: 'accountNumber',
      key: 'errors:invalid_papara',
    });
    expect(problemOf({ paymentMethod: 'iban', accountNumber: 'TR00 1234' })).toEqual({
      field: 'accountNumber',
      key: 'errors:invalid_iban',
    });
  });

  it('refuses a method the settings do not offer', () => {
    expect(
      problemOf({ paymentMethod: 'iban', accountNumber: IBAN }, { ...limits, methods: ['papara'] }),
    ).toEqual({ field: 'paymentMethod', key: 'errors:method_unavailable' });
  });

  it('builds the request body with a lira number and a normalised account number', () => {
    expect(
      validateWithdraw({ ...good, amount: '20,5', paymentMethod: 'iban', accountNumber: IBAN }, limits),
    ).toEqual({
      ok: true,
      body: {
        amount: 20.5,
        paymentMethod: 'iban',
        accountDetails: { fullName: 'Deniz Yılmaz', accountNumber: 'TR330006100519786457841326' },
      },
    });
  });
});

describe('the server error of a withdrawal', () => {
  it('maps the contract codes and fields to the form', () => {
    expect(withdrawProblem('account_details_required', 'accountDetails.fullName', limits)).toEqual({
      field: 'fullName',
      key: 'profile:profilePageAccountDetailsRequired',
    });
    expect(withdrawProblem('suspended', undefined, limits)).toEqual({
      field: 'amount',
      key: 'errors:suspended',
    });
    expect(
      withdrawProblem('validation_error', 'accountDetails.fullName', limits, 'This value is too long'),
    ).toEqual({ field: 'fullName', key: 'common:fields.tooLong' });
  });
});

describe('the offered payment methods', () => {
  it('keeps the contract order, papara first, and only what the settings offer', () => {
    expect(offeredMethods(PAYMENT_METHODS, ['iban', 'papara'])).toEqual(['papara', 'iban']);
    expect(offeredMethods(PAYMENT_METHODS, ['iban'])).toEqual(['iban']);
    expect(offeredMethods(PAYMENT_METHODS, [])).toEqual([]);
  });
});

describe('validateSavedWithdraw', () => {
  const limits: WithdrawLimits = { minimumPayout: 20, balance: 100, methods: PAYMENT_METHODS };
  it('sends the amount alone for a withdrawal to the saved account', () => {
    expect(validateSavedWithdraw('50,5', 'iban', limits)).toEqual({
      ok: true,
      body: { amount: 50.5, useSavedAccount: true },
    });
  });
  it.each<[string, string]>([
    ['', 'profile:profilePageInvalidAmount'],
    ['10', 'profile:profilePageMinimumAmount'],
    ['100.01', 'profile:profilePageInsufficientFunds'],
  ])('refuses %j with %s, as the server would', (amount, key) => {
    const checked = validateSavedWithdraw(amount, 'papara', limits);
    expect(checked.ok ? null : checked.problem.key).toBe(key);
  });
  it('refuses a saved account whose method is no longer offered', () => {
    const checked = validateSavedWithdraw('50', 'iban', { ...limits, methods: ['papara'] });
    expect(checked.ok ? null : checked.problem).toEqual({
      field: 'paymentMethod',
      key: 'errors:method_unavailable',
    });
  });
});
