import { z } from 'zod';
import { PAYMENT_METHODS, type PaymentMethod, REVIEW_STATUSES, type ReviewStatus } from './constants';
import { ERROR_MESSAGES, type ErrorCode } from './errors';
import type { FlagDto } from './fraud';
import { tlToKurus } from './money';
import { type RuleResult, ruleSchema } from './rules';
import { FIELD_MESSAGES, fieldErrors } from './schemas';

/** A withdrawal as the API shows it; `accountNumber` is masked except for admins. */
export interface WithdrawalDto {
  _id: string;
  amount: number;
  paymentMethod: PaymentMethod;
  accountDetails: { fullName: string; accountNumber: string };
  status: ReviewStatus;
  createdAt: string;
  updatedAt: string;
  reviewedAt: string | null;
  rejectionReason: string | null;
  description: string | null;
  user: { _id: string; name: string };
  /** admins only: its fraud signals and its account's; never sent to workers */
  flags?: FlagDto[];
}

/**
 * The worker's saved payout account (GET /api/withdraws/account): the one the last withdrawal
 * was asked to, with the number masked as in the worker's own withdrawal list.
 */
export interface PayoutAccountDto {
  paymentMethod: PaymentMethod;
  fullName: string;
  /** masked: all but the last 4 characters are `*` */
  accountNumber: string;
  updatedAt: string;
}

export const MAX_FULL_NAME_LENGTH = 100;
export const MAX_ACCOUNT_NUMBER_LENGTH = 64;
export const MAX_REJECTION_REASON_LENGTH = 500;

/** `₺20.00` for 2000 kuruş: the lira amount inside English messages. */
export function formatLiraPlain(kurus: number): string {
  const sign = kurus < 0 ? '-' : '';
  const abs = Math.abs(kurus);
  return `${sign}₺${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Upper case without spaces: how an IBAN is stored and checked. */
export function normalizeIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** A Turkish IBAN: TR, 24 digits, and the ISO 13616 mod-97 check equal to 1. */
export function isValidTurkishIban(value: string): boolean {
  const iban = normalizeIban(value);
  if (!/^TR\d{24}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/** A Papara account number: 10 digits (spaces in the input are dropped). */
export function normalizePapara(value: string): string {
  return value.replace(/\s+/g, '');
}

export function isValidPapara(value: string): boolean {
  return /^\d{10}$/.test(normalizePapara(value));
}

/** Everything but the last 4 characters replaced by `*`, as users see account numbers in lists. */
export function maskAccountNumber(value: string): string {
  if (value.length <= 4) return value;
  return '*'.repeat(value.length - 4) + value.slice(-4);
}

export interface WithdrawalRules {
  /** kuruş */
  minimumPayout: number;
  /** kuruş */
  balance: number;
  methods: readonly PaymentMethod[];
}

export interface WithdrawalRequest {
  /** kuruş */
  amount: number;
  paymentMethod: PaymentMethod;
  fullName: string;
  /** normalised: IBAN upper case without spaces, Papara digits only */
  accountNumber: string;
}

export interface WithdrawalProblem {
  code: ErrorCode;
  field: string;
  message: string;
  /** interpolation values of the message (`amount` for below_minimum) */
  params?: Record<string, string>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isPaymentMethod(v: unknown): v is PaymentMethod {
  return PAYMENT_METHODS.some((m) => m === v);
}

function problem(code: ErrorCode, field: string, params?: Record<string, string>): WithdrawalProblem {
  let message: string = ERROR_MESSAGES[code];
  for (const [k, v] of Object.entries(params ?? {})) message = message.replace(`{{${k}}}`, v);
  return { code, field, message, ...(params ? { params } : {}) };
}

/**
 * The amount's rules, first of a withdrawal request's: a positive lira amount with at most two
 * decimals, at least the minimum payout, at most the balance. Returns kuruş.
 */
export function checkWithdrawalAmount(
  value: unknown,
  rules: WithdrawalRules,
): { ok: true; value: number } | { ok: false; problem: WithdrawalProblem } {
  const amount = tlToKurus(value);
  if (amount === null || amount <= 0) return { ok: false, problem: problem('invalid_amount', 'amount') };
  if (amount < rules.minimumPayout) {
    return {
      ok: false,
      problem: problem('below_minimum', 'amount', { amount: formatLiraPlain(rules.minimumPayout) }),
    };
  }
  if (amount > rules.balance) return { ok: false, problem: problem('insufficient_balance', 'amount') };
  return { ok: true, value: amount };
}

/** A withdrawal to the account saved by the worker's last one: the amount (kuruş) alone. */
export interface SavedAccountWithdrawal {
  amount: number;
  useSavedAccount: true;
}

/**
 * The body of a withdrawal to the saved account (`{ amount, useSavedAccount: true }`): its
 * amount is checked like any other's; account fields beside `useSavedAccount` are refused, the
 * request would be ambiguous. The saved account itself is read inside the transaction and goes
 * through checkWithdrawalRequest again there (withSavedAccount): today's methods and number
 * rules apply to it as to a typed one.
 */
export function checkSavedAccountWithdrawal(
  input: Record<string, unknown>,
  rules: WithdrawalRules,
): { ok: true; value: SavedAccountWithdrawal } | { ok: false; problem: WithdrawalProblem } {
  if (input.useSavedAccount !== true || 'accountDetails' in input || 'paymentMethod' in input) {
    return {
      ok: false,
      problem: { code: 'validation_error', field: 'useSavedAccount', message: FIELD_MESSAGES.invalidValue },
    };
  }
  const amount = checkWithdrawalAmount(input.amount, rules);
  if (!amount.ok) return amount;
  return { ok: true, value: { amount: amount.value, useSavedAccount: true } };
}

/**
 * A withdrawal to the saved account made a whole request with that account, checked as a typed
 * one would be (the number against today's rules); no saved account is `no_saved_account`.
 */
export function withSavedAccount(
  body: SavedAccountWithdrawal,
  saved: { paymentMethod: PaymentMethod; fullName: string; accountNumber: string } | undefined,
): { ok: true; value: WithdrawalRequest } | { ok: false; problem: WithdrawalProblem } {
  if (!saved) return { ok: false, problem: problem('no_saved_account', 'useSavedAccount') };
  return checkWithdrawalRequest(
    {
      amount: body.amount / 100,
      paymentMethod: saved.paymentMethod,
      accountDetails: { fullName: saved.fullName, accountNumber: saved.accountNumber },
    },
    OPEN_RULES,
  );
}

/**
 * The withdrawal request's rules in the order they are reported: amount, minimum,
 * balance, account details, then the payout method. Used by the server (authoritative,
 * with the balance read inside the transaction) and by the withdraw modal (comfort).
 */
export function checkWithdrawalRequest(
  body: unknown,
  rules: WithdrawalRules,
): { ok: true; value: WithdrawalRequest } | { ok: false; problem: WithdrawalProblem } {
  const input = isRecord(body) ? body : {};
  const checkedAmount = checkWithdrawalAmount(input.amount, rules);
  if (!checkedAmount.ok) return checkedAmount;
  const amount = checkedAmount.value;

  const details = isRecord(input.accountDetails) ? input.accountDetails : {};
  const fullName = typeof details.fullName === 'string' ? details.fullName.trim() : '';
  const rawNumber = typeof details.accountNumber === 'string' ? details.accountNumber.trim() : '';
  if (!fullName)
    return { ok: false, problem: problem('account_details_required', 'accountDetails.fullName') };
  if (!rawNumber) {
    return { ok: false, problem: problem('account_details_required', 'accountDetails.accountNumber') };
  }
  if (fullName.length > MAX_FULL_NAME_LENGTH) {
    return {
      ok: false,
      problem: {
        code: 'validation_error',
        field: 'accountDetails.fullName',
        message: FIELD_MESSAGES.tooLong,
      },
    };
  }

  const paymentMethod = input.paymentMethod;
  if (!isPaymentMethod(paymentMethod) || !rules.methods.includes(paymentMethod)) {
    return { ok: false, problem: problem('method_unavailable', 'paymentMethod') };
  }
  if (rawNumber.length > MAX_ACCOUNT_NUMBER_LENGTH) {
    const code = paymentMethod === 'iban' ? 'invalid_iban' : 'invalid_papara';
    return { ok: false, problem: problem(code, 'accountDetails.accountNumber') };
  }
  if (paymentMethod === 'iban' && !isValidTurkishIban(rawNumber)) {
    return { ok: false, problem: problem('invalid_iban', 'accountDetails.accountNumber') };
  }
  if (paymentMethod === 'papara' && !isValidPapara(rawNumber)) {
    return { ok: false, problem: problem('invalid_papara', 'accountDetails.accountNumber') };
  }
  const accountNumber = paymentMethod === 'iban' ? normalizeIban(rawNumber) : normalizePapara(rawNumber);
  return { ok: true, value: { amount, paymentMethod, fullName, accountNumber } };
}

/** Rules that let every well-formed request through: what the form alone can be judged on. */
const OPEN_RULES: WithdrawalRules = {
  minimumPayout: 0,
  balance: Number.MAX_SAFE_INTEGER,
  methods: PAYMENT_METHODS,
};

/**
 * The body of POST /api/withdraws as a well-formed request: the amount, the account details
 * and a known method (with a valid IBAN or Papara number). The rules that depend on what is
 * stored (the minimum, the methods on offer, the balance read inside the transaction) are
 * checkWithdrawalRules, judged after it.
 */
export const withdrawalRequestSchema = ruleSchema(
  (
    body,
  ):
    | { ok: true; value: WithdrawalRequest | SavedAccountWithdrawal }
    | { ok: false; problem: WithdrawalProblem } =>
    isRecord(body) && 'useSavedAccount' in body
      ? checkSavedAccountWithdrawal(body, OPEN_RULES)
      : checkWithdrawalRequest(body, OPEN_RULES),
);

/** The stored rules for a well-formed request, in the order checkWithdrawalRequest reports them. */
export function checkWithdrawalRules(
  request: WithdrawalRequest,
  rules: WithdrawalRules,
): WithdrawalProblem | null {
  if (request.amount < rules.minimumPayout)
    return problem('below_minimum', 'amount', { amount: formatLiraPlain(rules.minimumPayout) });
  if (request.amount > rules.balance) return problem('insufficient_balance', 'amount');
  if (!rules.methods.includes(request.paymentMethod)) return problem('method_unavailable', 'paymentMethod');
  return null;
}

/** PUT /api/admin/withdraws/{id}/reject */
export const rejectWithdrawalSchema = z.object({
  reason: z
    .string({ error: ERROR_MESSAGES.reason_required })
    .trim()
    .min(1, ERROR_MESSAGES.reason_required)
    .max(MAX_REJECTION_REASON_LENGTH, FIELD_MESSAGES.tooLong),
});
export type RejectWithdrawalInput = z.input<typeof rejectWithdrawalSchema>;
export type WithdrawalRejection = z.output<typeof rejectWithdrawalSchema>;

/** A rejection's reason, checked: a missing or blank one is its own code, reason_required. */
export function checkWithdrawalRejection(body: unknown): RuleResult<WithdrawalRejection> {
  const parsed = rejectWithdrawalSchema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const [field = 'reason', message = ERROR_MESSAGES.validation_error] =
    Object.entries(fieldErrors(parsed.error))[0] ?? [];
  const code =
    field === 'reason' && message === ERROR_MESSAGES.reason_required ? 'reason_required' : 'validation_error';
  return { ok: false, problem: { code, field, message } };
}

/** The body of PUT /api/admin/withdraws/{id}/reject. */
export const withdrawalRejectionSchema = ruleSchema(checkWithdrawalRejection);

/** The body of PUT /api/admin/withdraws/{id}/approve: no fields are read (any sent are ignored). */
export const withdrawalApprovalSchema = z.object({});

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, FIELD_MESSAGES.invalidValue)
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      message: FIELD_MESSAGES.invalidValue,
    },
  );

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Query of GET /api/admin/withdraws; dates are calendar days in Turkey's time (UTC+3), both inclusive. */
export const adminWithdrawalsQuerySchema = z
  .object({
    status: z.preprocess(
      (v) => (v === '' || v === 'all' ? undefined : v),
      z.enum(REVIEW_STATUSES, { error: FIELD_MESSAGES.invalidValue }).optional(),
    ),
    from: z.preprocess(blankToUndefined, isoDate.optional()),
    to: z.preprocess(blankToUndefined, isoDate.optional()),
    q: z.preprocess(blankToUndefined, z.string().trim().max(100, FIELD_MESSAGES.tooLong).optional()),
    userId: z.preprocess(blankToUndefined, z.string().max(200, FIELD_MESSAGES.tooLong).optional()),
    /** only withdrawals with a fraud signal not dismissed (theirs or their account's) */
    flagged: z.preprocess(
      (v) => (v === '' || v === 'false' ? undefined : v),
      z
        .enum(['true'], { error: FIELD_MESSAGES.invalidValue })
        .transform(() => true)
        .optional(),
    ),
    page: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: FIELD_MESSAGES.invalidValue })
        .int(FIELD_MESSAGES.invalidValue)
        .min(1, FIELD_MESSAGES.invalidValue)
        .max(1_000_000, FIELD_MESSAGES.invalidValue)
        .default(1),
    ),
    limit: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: FIELD_MESSAGES.invalidValue })
        .int(FIELD_MESSAGES.invalidValue)
        .min(1, FIELD_MESSAGES.invalidValue)
        .max(100, FIELD_MESSAGES.invalidValue)
        .default(20),
    ),
  })
  // a range whose start is after its end finds nothing: say so instead of an empty list
  .refine((v) => !v.from || !v.to || v.from <= v.to, {
    message: FIELD_MESSAGES.dateRangeReversed,
    path: ['to'],
  });
export type AdminWithdrawalsQuery = z.output<typeof adminWithdrawalsQuerySchema>;
