import type { PaymentMethod } from '@contract/constants';
import type { PayoutAccountDto } from '@contract/withdrawals';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/field';
import { Modal } from '../../components/modal';
import { ApiError, request } from '../../lib/api';
import { errorText } from '../../lib/errors';
import { formatAccountNumber, formatMoney } from '../../lib/format';
import { profileKeys } from './profile-queries';
import {
  validateSavedWithdraw,
  validateWithdraw,
  type WithdrawField,
  type WithdrawLimits,
  type WithdrawProblem,
  type WithdrawValues,
  withdrawProblem,
} from './withdraw-validation';

const FORM_ID = 'withdraw-form';

/** The amount field's starting value: the whole balance, so a repeat needs no typing. */
function wholeBalance(limits: WithdrawLimits): string {
  return limits.balance >= limits.minimumPayout ? limits.balance.toFixed(2) : '';
}

/**
 * The withdraw form. It is mounted afresh for every opening, with that opening's
 * Idempotency-Key: a double click or a retry after a lost reply cannot create a second request.
 * With a saved account it offers that account (masked) and the whole balance: the request is
 * one tap away. Typing another account replaces the saved one, which the worker confirms first.
 */
export function WithdrawModal({
  idempotencyKey,
  limits,
  saved,
  onClose,
  onDone,
}: {
  idempotencyKey: string;
  limits: WithdrawLimits;
  /** the saved account as the server shows it, null when none */
  saved: PayoutAccountDto | null;
  onClose(): void;
  onDone(amount: number): void;
}) {
  const { t } = useTranslation(['profile', 'common', 'errors']);
  const queryClient = useQueryClient();
  const [useSaved, setUseSaved] = useState(saved !== null);
  const [confirming, setConfirming] = useState(false);
  const [values, setValues] = useState<WithdrawValues>({
    amount: saved ? wholeBalance(limits) : '',
    paymentMethod:
      saved && limits.methods.includes(saved.paymentMethod)
        ? saved.paymentMethod
        : (limits.methods[0] ?? 'papara'),
    fullName: saved?.fullName ?? '',
    accountNumber: '',
  });
  const [problem, setProblem] = useState<WithdrawProblem | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const amountRef = useRef<HTMLInputElement>(null);
  // after the dialog opened (the Modal's effect runs first): React's autoFocus would fire too early
  useEffect(() => amountRef.current?.focus(), []);

  const set = <K extends keyof WithdrawValues>(key: K, value: WithdrawValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setConfirming(false);
    if (problem?.field === key) setProblem(null);
  };
  const errorOf = (field: WithdrawField) =>
    problem?.field === field ? t(problem.key, problem.params) : undefined;

  const show = (p: WithdrawProblem) => {
    setProblem(p);
    setConfirming(false);
    document.getElementById(`withdraw-${p.field}`)?.focus();
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (sending.current) return;
    setFailure(null);
    const checked =
      useSaved && saved
        ? validateSavedWithdraw(values.amount, saved.paymentMethod, limits)
        : validateWithdraw(values, limits);
    if (!checked.ok) return show(checked.problem);
    // a typed account replaces the saved one: said first, sent on the second press
    if (!useSaved && saved && !confirming) {
      setConfirming(true);
      return;
    }
    sending.current = true;
    setBusy(true);
    try {
      await request('/withdraws', {
        method: 'POST',
        body: checked.body,
        headers: { 'Idempotency-Key': idempotencyKey },
      });
      void queryClient.invalidateQueries({ queryKey: profileKeys.payoutAccount });
      onDone(checked.body.amount);
    } catch (err) {
      if (err instanceof ApiError && err.status === 422 && Object.keys(err.errors).length > 0) {
        const [field, message] = Object.entries(err.errors)[0];
        // the saved account's own problems (a method no longer offered): let the worker type one
        if (field === 'useSavedAccount' || (useSaved && field !== 'amount')) setUseSaved(false);
        show(withdrawProblem(err.code, field, limits, message));
      } else setFailure(errorText(t, err, 'profile:profilePageWithdrawError'));
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  const method = values.paymentMethod;
  const footer = (
    <>
      <button
        type="button"
        className="btn btn-outline"
        onClick={confirming ? () => setConfirming(false) : onClose}
      >
        {confirming ? t('savedAccount.back') : t('common:actions.cancel')}
      </button>
      <button
        type="submit"
        form={FORM_ID}
        className="btn btn-primary"
        disabled={busy || limits.methods.length === 0}
        data-testid="withdraw-submit"
      >
        {busy ? t('withdraw.sending') : confirming ? t('savedAccount.confirmSubmit') : t('withdraw.submit')}
      </button>
    </>
  );

  return (
    <Modal open title={t('withdraw.title')} onClose={onClose} closeOnBackdrop={!busy} footer={footer}>
      <form id={FORM_ID} className="withdraw-form" onSubmit={submit} noValidate>
        {failure && (
          <div className="notice notice-error" role="alert" data-testid="withdraw-failure">
            {failure}
          </div>
        )}
        {limits.methods.length === 0 && <p className="notice notice-info">{t('withdraw.noMethods')}</p>}
        <Field id="withdraw-amount" label={t('withdraw.amount')} error={errorOf('amount')}>
          <input
            id="withdraw-amount"
            type="number"
            inputMode="decimal"
            min={limits.minimumPayout}
            max={limits.balance}
            step={0.01}
            required
            ref={amountRef}
            value={values.amount}
            onChange={(e) => set('amount', e.target.value)}
            aria-invalid={!!errorOf('amount')}
            aria-describedby="withdraw-amount-hint"
          />
          <p className="profile-hint muted" id="withdraw-amount-hint">
            {t('withdraw.amountHint', {
              minimum: formatMoney(limits.minimumPayout),
              balance: formatMoney(limits.balance),
            })}
          </p>
        </Field>
        {useSaved && saved ? (
          <div className="saved-account" data-testid="saved-account">
            <p className="saved-account-label">{t('savedAccount.paidTo')}</p>
            <p className="saved-account-line">
              <strong>{t(`methods.${saved.paymentMethod}`)}</strong>{' '}
              <span data-testid="saved-account-number">{formatAccountNumber(saved.accountNumber)}</span>
            </p>
            <p className="saved-account-line">{saved.fullName}</p>
            {errorOf('paymentMethod') && (
              <p className="field-error" role="alert">
                {errorOf('paymentMethod')}
              </p>
            )}
            <button
              type="button"
              className="btn btn-outline btn-sm"
              data-testid="saved-account-change"
              onClick={() => {
                setUseSaved(false);
                setProblem(null);
              }}
            >
              {t('savedAccount.change')}
            </button>
          </div>
        ) : (
          <>
            {saved && (
              <p className="profile-hint muted" data-testid="saved-account-replacing">
                {t('savedAccount.replacing', {
                  account: `${t(`methods.${saved.paymentMethod}`)} ${formatAccountNumber(saved.accountNumber)}`,
                })}{' '}
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => {
                    setUseSaved(true);
                    setConfirming(false);
                    setProblem(null);
                  }}
                >
                  {t('savedAccount.keep')}
                </button>
              </p>
            )}
            <Field id="withdraw-paymentMethod" label={t('withdraw.method')} error={errorOf('paymentMethod')}>
              <select
                id="withdraw-paymentMethod"
                value={method}
                onChange={(e) => set('paymentMethod', e.target.value as PaymentMethod)}
              >
                {limits.methods.map((m) => (
                  <option key={m} value={m}>
                    {t(`methods.${m}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="withdraw-fullName" label={t('withdraw.fullName')} error={errorOf('fullName')}>
              <input
                id="withdraw-fullName"
                type="text"
                autoComplete="name"
                maxLength={100}
                value={values.fullName}
                onChange={(e) => set('fullName', e.target.value)}
                aria-invalid={!!errorOf('fullName')}
              />
            </Field>
            <Field
              id="withdraw-accountNumber"
              label={t(`withdraw.${method}`)}
              error={errorOf('accountNumber')}
            >
              <input
                id="withdraw-accountNumber"
                type="text"
                inputMode={method === 'papara' ? 'numeric' : 'text'}
                autoComplete="off"
                maxLength={64}
                placeholder={t(`withdraw.${method}Placeholder`)}
                value={values.accountNumber}
                onChange={(e) => set('accountNumber', e.target.value)}
                aria-invalid={!!errorOf('accountNumber')}
              />
            </Field>
          </>
        )}
        {confirming && saved && (
          <div className="notice notice-warning" role="alert" data-testid="saved-account-confirm">
            {t('savedAccount.confirm', {
              old: `${t(`methods.${saved.paymentMethod}`)} ${formatAccountNumber(saved.accountNumber)}`,
            })}
          </div>
        )}
        <p className="muted profile-hint">{t('withdraw.payoutTime')}</p>
      </form>
    </Modal>
  );
}
