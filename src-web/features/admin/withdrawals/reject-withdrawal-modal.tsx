import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_REJECTION_REASON_LENGTH, type WithdrawalDto } from '../../../../src-server/contract/withdrawals';
import { adminKeys, rejectWithdrawal } from '../../../components/admin/admin-api';
import { newIdempotencyKey } from '../../../components/admin/idempotency-key';
import { ItemFormModal } from '../../../components/admin/item-form-modal';
import { serverErrorText } from '../../../components/admin/server-error';
import { useToast } from '../../../components/toast';
import { formatMoney } from '../../../lib/format';

/** Rejects a withdrawal with a required reason; the amount goes back to the user's balance. */
export function RejectWithdrawalModal({ item, onClose }: { item: WithdrawalDto | null; onClose(): void }) {
  const { t } = useTranslation('adminReview');
  return (
    <ItemFormModal item={item} title={t('withdrawals.rejectTitle')} onClose={onClose}>
      {(current) => <RejectForm item={current} onClose={onClose} />}
    </ItemFormModal>
  );
}

function RejectForm({ item, onClose }: { item: WithdrawalDto; onClose(): void }) {
  const { t } = useTranslation('adminReview');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [key] = useState(newIdempotencyKey);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const reject = useMutation({
    mutationFn: (text: string) => rejectWithdrawal(item._id, text, key),
    onMutate: () => setFailure(null),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      toast.success(t('withdrawalsRejectSuccess'));
      onClose();
    },
    onError: (err) => setFailure(serverErrorText(t, err, 'adminReview:withdrawalsRejectError')),
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
