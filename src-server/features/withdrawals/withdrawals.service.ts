import { DEFAULT_MINIMUM_PAYOUT_TL, PAYMENT_METHODS } from '../../contract/constants';
import { tlToKurus } from '../../contract/money';
import {
  checkWithdrawalRules,
  maskAccountNumber,
  type PayoutAccountDto,
  type SavedAccountWithdrawal,
  type WithdrawalDto,
  type WithdrawalRequest,
  type WithdrawalRules,
  withSavedAccount,
} from '../../contract/withdrawals';
import { newId, nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { flagSharedPayout } from '../fraud/signals';
import { type MoneyReply, runMoneyMove } from '../money/idempotency';
import type { IdempotencyScope } from '../money/idempotency.repository';
import { debit } from '../money/ledger';
import { getSettings } from '../settings/settings.service';
import type { UserRow } from '../users/users.repository';
import { holdLiveUser } from '../users/users.repository';
import { findPayoutAccount, forgetPayoutAccount, savePayoutAccount } from './payout-accounts.repository';
import { toWithdrawalDto } from './withdrawals.mapper';
import {
  currentBalance,
  findWithdrawal,
  insertWithdrawal,
  listUserWithdrawals,
} from './withdrawals.repository';

/** Minimum payout and offered methods from the settings (20 TL and both methods when unset or damaged). */
async function payoutRules(
  deps: Pick<AppDeps, 'db'>,
): Promise<Omit<WithdrawalRules, 'balance'> & { requireVerifiedEmail: boolean }> {
  const { payment } = await getSettings(deps.db);
  const minimumPayout = tlToKurus(payment.minimumPayout) ?? DEFAULT_MINIMUM_PAYOUT_TL * 100;
  const stored = Array.isArray(payment.methods) ? payment.methods : [];
  const methods = PAYMENT_METHODS.filter((m) => stored.includes(m));
  return { minimumPayout, methods, requireVerifiedEmail: payment.requireVerifiedEmail === true };
}

/**
 * Requests a withdrawal and holds its amount at once: the stored rules are checked against the
 * balance read inside the transaction (the route has read a well-formed request), then the conditional debit, the hold row and the
 * withdrawal are written together. A debit that finds too little balance writes nothing.
 */
export async function requestWithdrawal(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  user: UserRow,
  request: WithdrawalRequest | SavedAccountWithdrawal,
  scope: IdempotencyScope | null,
): Promise<MoneyReply> {
  const { requireVerifiedEmail, ...rules } = await payoutRules(deps);
  // the account as the request found it (requireUser reads it afresh for every request)
  if (requireVerifiedEmail && !user.email_verified_at) throw fail.forbidden('email_not_verified');
  return runMoneyMove(deps.db, scope, async (tx) => {
    if (!(await holdLiveUser(tx, user._id))) throw fail.unauthorized();
    const balance = (await currentBalance(tx, user._id)) ?? 0;
    let whole: WithdrawalRequest;
    if (!('useSavedAccount' in request)) whole = request;
    else {
      // the saved account passes the same rules as a typed one: the methods may have changed since
      const saved = await findPayoutAccount(tx, user._id);
      const made = withSavedAccount(
        request,
        saved && {
          paymentMethod: saved.payment_method,
          fullName: saved.full_name,
          accountNumber: saved.account_number,
        },
      );
      if (!made.ok) throw fail.rule(made.problem);
      whole = made.value;
    }
    const problem = checkWithdrawalRules(whole, { ...rules, balance });
    if (problem) throw fail.rule(problem);
    const { amount, paymentMethod, fullName, accountNumber } = whole;
    const id = newId();
    const now = nowIso(deps.clock);
    const held = await debit(tx, {
      userId: user._id,
      amount,
      kind: 'withdrawal_hold',
      ref: id,
      actorId: user._id,
      at: now,
    });
    if (!held) throw fail.invalid('insufficient_balance', 'amount');
    await insertWithdrawal(tx, {
      _id: id,
      user_id: user._id,
      amount,
      payment_method: paymentMethod,
      full_name: fullName,
      account_number: accountNumber,
      status: 'pending',
      rejection_reason: null,
      description: null,
      created_at: now,
      updated_at: now,
      reviewed_by: null,
      reviewed_at: null,
    });
    // a fraud signal, in the same transaction: a flag for the admin, never a refusal
    await flagSharedPayout(tx, {
      withdrawalId: id,
      userId: user._id,
      accountNumber,
      method: paymentMethod,
      at: now,
    });
    // the account is remembered with the request, in its transaction: the next withdrawal offers it
    await savePayoutAccount(tx, {
      user_id: user._id,
      payment_method: paymentMethod,
      full_name: fullName,
      account_number: accountNumber,
      updated_at: now,
    });
    const row = (await findWithdrawal(tx, id))!;
    return { status: 201, data: toWithdrawalDto(row, { admin: user.role === 'admin' }) };
  });
}

/** The user's own withdrawals, newest first. */
export async function myWithdrawals(deps: Pick<AppDeps, 'db'>, user: UserRow): Promise<WithdrawalDto[]> {
  const rows = await listUserWithdrawals(deps.db, user._id);
  return rows.map((r) => toWithdrawalDto(r, { admin: user.role === 'admin' }));
}

/** The worker's saved payout account, its number masked; null when none is kept. */
export async function myPayoutAccount(
  deps: Pick<AppDeps, 'db'>,
  user: UserRow,
): Promise<PayoutAccountDto | null> {
  const row = await findPayoutAccount(deps.db, user._id);
  if (!row) return null;
  return {
    paymentMethod: row.payment_method,
    fullName: row.full_name,
    accountNumber: maskAccountNumber(row.account_number),
    updatedAt: row.updated_at,
  };
}

/** Forgets the worker's saved payout account (the next withdrawal asks for one again). */
export async function forgetMyPayoutAccount(deps: Pick<AppDeps, 'db'>, user: UserRow): Promise<boolean> {
  return (await forgetPayoutAccount(deps.db, user._id)) > 0;
}
