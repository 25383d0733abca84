import type { PaymentMethod } from '@contract/constants';
import { fieldMessageKey } from '@contract/field-messages';
import { tlToKurus } from '@contract/money';
import { checkWithdrawalAmount, checkWithdrawalRequest } from '@contract/withdrawals';
import { formatMoney } from '../../lib/format';

export interface WithdrawValues {
  amount: string;
  paymentMethod: PaymentMethod;
  fullName: string;
  accountNumber: string;
}

/** The body of POST /api/withdraws. */
export interface WithdrawBody {
  amount: number;
  paymentMethod: PaymentMethod;
  accountDetails: { fullName: string; accountNumber: string };
}

export type WithdrawField = 'amount' | 'paymentMethod' | 'fullName' | 'accountNumber';

/** A broken rule: the form field it belongs to and the locale key (with its values) that says so. */
export interface WithdrawProblem {
  field: WithdrawField;
  key: string;
  params?: Record<string, string>;
}

/** TL numbers of the settings and the cached user. */
export interface WithdrawLimits {
  minimumPayout: number;
  balance: number;
  methods: readonly PaymentMethod[];
}

const FIELDS: Record<string, WithdrawField> = {
  amount: 'amount',
  paymentMethod: 'paymentMethod',
  'accountDetails.fullName': 'fullName',
  'accountDetails.accountNumber': 'accountNumber',
};

/**
 * The message of a withdrawal rule by its contract code: the spec's profile keys for the four
 * rules the form checks (the minimum with the lira amount), the error catalogue otherwise.
 * Serves the browser's own check and the server's 422 alike.
 */
export function withdrawProblem(
  code: string,
  field: string | undefined,
  limits: Pick<WithdrawLimits, 'minimumPayout'>,
  message?: string,
): WithdrawProblem {
  const at = (field && FIELDS[field]) || 'amount';
  switch (code) {
    case 'invalid_amount':
      return { field: at, key: 'profile:profilePageInvalidAmount' };
    case 'below_minimum':
      return {
        field: at,
        key: 'profile:profilePageMinimumAmount',
        params: { amount: formatMoney(limits.minimumPayout) },
      };
    case 'insufficient_balance':
      return { field: at, key: 'profile:profilePageInsufficientFunds' };
    case 'account_details_required':
      return { field: at, key: 'profile:profilePageAccountDetailsRequired' };
    case 'validation_error': {
      const fieldKey = message ? fieldMessageKey(message) : undefined;
      return { field: at, key: `common:fields.${fieldKey ?? 'invalidValue'}` };
    }
    default:
      return { field: at, key: `errors:${code}` };
  }
}

function parseAmount(text: string): number {
  const trimmed = text.trim().replace(',', '.');
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

/**
 * The withdraw modal's check, in the server's order (amount, minimum, balance,
 * account details) and then the payout method and account number, with the same contract
 * rules the server applies. Amounts are compared in kuruş.
 */
export function validateWithdraw(
  values: WithdrawValues,
  limits: WithdrawLimits,
): { ok: true; body: WithdrawBody } | { ok: false; problem: WithdrawProblem } {
  const checked = checkWithdrawalRequest(
    {
      amount: parseAmount(values.amount),
      paymentMethod: values.paymentMethod,
      accountDetails: { fullName: values.fullName, accountNumber: values.accountNumber },
    },
    {
      minimumPayout: tlToKurus(limits.minimumPayout) ?? Math.round(limits.minimumPayout * 100),
      balance: tlToKurus(limits.balance) ?? Math.floor(limits.balance * 100),
      methods: limits.methods,
    },
  );
  if (!checked.ok) {
    const { code, field, message } = checked.problem;
    return { ok: false, problem: withdrawProblem(code, field, limits, message) };
  }
  const { amount, paymentMethod, fullName, accountNumber } = checked.value;
  return {
    ok: true,
    body: { amount: amount / 100, paymentMethod, accountDetails: { fullName, accountNumber } },
  };
}

/** The body of a withdrawal to the saved account: the amount alone, the server adds the account. */
export interface SavedWithdrawBody {
  amount: number;
  useSavedAccount: true;
}

/**
 * The check of a withdrawal to the saved account: the amount's rules, then whether the saved
 * account's method is still offered (the server checks the whole account again).
 */
export function validateSavedWithdraw(
  amountText: string,
  method: PaymentMethod,
  limits: WithdrawLimits,
): { ok: true; body: SavedWithdrawBody } | { ok: false; problem: WithdrawProblem } {
  const checked = checkWithdrawalAmount(parseAmount(amountText), {
    minimumPayout: tlToKurus(limits.minimumPayout) ?? Math.round(limits.minimumPayout * 100),
    balance: tlToKurus(limits.balance) ?? Math.floor(limits.balance * 100),
    methods: limits.methods,
  });
  if (!checked.ok) {
    const { code, field, message } = checked.problem;
    return { ok: false, problem: withdrawProblem(code, field, limits, message) };
  }
  if (!limits.methods.includes(method))
    return { ok: false, problem: { field: 'paymentMethod', key: 'errors:method_unavailable' } };
  return { ok: true, body: { amount: checked.value / 100, useSavedAccount: true } };
}

/**
 * The methods the settings offer, in the contract's order (papara first: the default).
 * None offered means none: the server would refuse every method too.
 */
export function offeredMethods(
  all: readonly PaymentMethod[],
  fromSettings: readonly string[] | undefined,
): PaymentMethod[] {
  return all.filter((m) => fromSettings?.includes(m));
}
