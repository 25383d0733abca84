import { MAX_REJECTION_REASON_LENGTH, type WithdrawalDto } from '@contract/withdrawals';
import { type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAccountNumber, formatMoney } from '../../lib/format';
import { ConfirmModal } from '../confirm-modal';
import { useToast } from '../toast';
import { adminKeys, approveWithdrawal, rejectWithdrawal } from './admin-api';
import { newIdempotencyKey } from './idempotency-key';
import { ItemFormModal } from './item-form-modal';
import { serverErrorText } from './server-error';

// Approving or rejecting one withdrawal, wherever it is offered (the dashboard, the withdrawals
// list): one client with its Idempotency-Key, one way to word a failure, and every 'admin' query
// (the lists and the dashboard's counts) reloaded after.

export type ApproveWithdrawal = UseMutationResult<WithdrawalDto, unknown, WithdrawalDto>;

/** Approves a withdrawal; `onApproved` closes the confirmation. */
export function useApproveWithdrawal(onApproved: () => void): ApproveWithdrawal {
  const { t } = useTranslation('adminLists');
  const toast = useToast();
  const queryClient = useQueryClient();
  // one key per withdrawal: a retry after a lost reply is answered, not paid twice
  const keys = useRef(new Map<string, string>());
  const keyFor = (id: string) => {
    const known = keys.current.get(id);
    if (known) return known;
    const key = newIdempotencyKey();
    keys.current.set(id, key);
    return key;
  };
  return useMutation({
    mutationFn: (w: WithdrawalDto) => approveWithdrawal(w._id, keyFor(w._id)),
    onSuccess: () => {
      onApproved();
      toast.success(t('withdrawalsApproveSuccess'));
    },
    onError: (err) => toast.error(serverErrorText(t, err, 'adminLists:withdrawalsApproveError')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** Approving pays real money: asked first, with what is paid to whom. */
export function ApproveWithdrawalModal({
  item,
  approve,
  onClose,
}: {
  item: WithdrawalDto | null;
  approve: ApproveWithdrawal;
  onClose(): void;
}) {
  const { t } = useTranslation('adminLists');
  return (
    <ConfirmModal
      open={item !== null}
      title={t('withdrawals.approveTitle')}
      confirmLabel={t('withdrawals.approveConfirm')}
      confirmTestId="confirm-approve"
      pending={approve.isPending}
      tone="success"
      onClose={onClose}
      onConfirm={() => item && approve.mutate(item)}
    >
      {item && (
        <p data-testid="approve-summary">
          {t('withdrawals.approveText', {
            amount: formatMoney(item.amount),
            name: item.accountDetails.fullName,
            method: t(`methods.${item.paymentMethod}`),
            account: formatAccountNumber(item.accountDetails.accountNumber),
          })}
        </p>
      )}
    </ConfirmModal>
  );
}

/** Rejects a withdrawal with a required reason; the amount goes back to the user's balance. */
export function RejectWithdrawalModal({ item, onClose }: { item: WithdrawalDto | null; onClose(): void }) {
  const { t } = useTranslation('adminLists');
  return (
    <ItemFormModal item={item} title={t('withdrawals.rejectTitle')} onClose={onClose}>
      {(current) => <RejectForm item={current} onClose={onClose} />}
    </ItemFormModal>
  );
}

function RejectForm({ item, onClose }: { item: WithdrawalDto; onClose(): void }) {
  const { t } = useTranslation('adminLists');
  const toast = useToast();
  const queryClient = useQueryClient();
  // one key for this withdrawal's rejection: sent again with a retry from the same dialog
  const [key] = useState(newIdempotencyKey);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const reject = useMutation({
    mutationFn: (text: string) => rejectWithdrawal(item._id, text, key),
    onMutate: () => setFailure(null),
    onSuccess: () => {
      toast.success(t('withdrawalsRejectSuccess'));
      onClose();
    },
    onError: (err) => setFailure(serverErrorText(t, err, 'adminLists:withdrawalsRejectError')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
  const empty = reason.trim() === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!empty) reject.mutate(reason.trim());
  };
  return (
    <form onSubmit={submit} noValidate data-testid="withdrawal-reject-form">
      <p>{t('withdrawals.rejectSummary', { name: item.user.name, amount: formatMoney(item.amount) })}</p>
      <div className={`field${touched && empty ? ' has-error' : ''}`}>
        <label htmlFor="reject-reason">{t('withdrawals.rejectReason')}</label>
        <textarea
          id="reject-reason"
          rows={3}
          maxLength={MAX_REJECTION_REASON_LENGTH}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          onBlur={() => setTouched(true)}
          aria-invalid={touched && empty ? true : undefined}
          aria-describedby="reject-reason-note"
        />
        <p
          id="reject-reason-note"
          className={touched && empty ? 'field-error' : 'muted small'}
          data-testid="reject-reason-note"
        >
          {empty ? t('withdrawalsRejectReasonRequired') : t('withdrawals.rejectHint')}
        </p>
      </div>
      {failure && (
        <p className="notice notice-error" role="alert" data-testid="withdrawal-reject-failure">
          {failure}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={onClose}>
          {t('common:actions.cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-danger"
          disabled={empty || reject.isPending}
          data-testid="withdrawal-reject-submit"
        >
          {reject.isPending ? t('withdrawals.rejecting') : t('withdrawals.rejectSubmit')}
        </button>
      </div>
    </form>
  );
}
