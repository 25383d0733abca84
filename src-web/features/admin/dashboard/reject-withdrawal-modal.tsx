import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_REJECTION_REASON_LENGTH, type WithdrawalDto } from '../../../../src-server/contract/withdrawals';
import { Field } from '../../../components/field';
import { Modal } from '../../../components/modal';
import { formatMoney } from '../../../lib/format';

/** Asks for the rejection reason of a withdrawal; the button stays disabled while it is empty. */
export function RejectWithdrawalModal({
  withdrawal,
  pending,
  onClose,
  onReject,
}: {
  withdrawal: WithdrawalDto | null;
  pending: boolean;
  onClose(): void;
  onReject(reason: string): void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Modal open={withdrawal !== null} title={t('dashboard.reject.title')} onClose={onClose} size="sm">
      {withdrawal && (
        <ReasonForm withdrawal={withdrawal} pending={pending} onClose={onClose} onReject={onReject} />
      )}
    </Modal>
  );
}

function ReasonForm({
  withdrawal,
  pending,
  onClose,
  onReject,
}: {
  withdrawal: WithdrawalDto;
  pending: boolean;
  onClose(): void;
  onReject(reason: string): void;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [reason, setReason] = useState('');
  const blank = reason.trim() === '';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!blank) onReject(reason.trim());
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>
        {t('dashboard.reject.summary', {
          name: withdrawal.user.name,
          amount: formatMoney(withdrawal.amount),
        })}
      </p>
      <Field id={`${id}-reason`} label={t('dashboard.reject.reason')}>
        <textarea
          id={`${id}-reason`}
          rows={3}
          value={reason}
          maxLength={MAX_REJECTION_REASON_LENGTH}
          aria-describedby={blank ? `${id}-hint` : undefined}
          onChange={(e) => setReason(e.target.value)}
        />
      </Field>
      {/* why the button is disabled, while it is */}
      {blank && (
        <p id={`${id}-hint`} className="muted small">
          {t('dashboard.rejectionReasonRequired')}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={onClose}>
          {t('common:actions.cancel')}
        </button>
        <button type="submit" className="btn btn-danger" disabled={blank || pending}>
          {t('dashboard.reject.confirm')}
        </button>
      </div>
    </form>
  );
}
