import { REJECTION_REASONS, type RejectionReason } from '@contract/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRejectionReason } from './review-form';

/** Quick approve, quick reject with a preset reason, or the full review with a feedback. */
export function QuickActions({
  sending,
  pendingStatus,
  onApprove,
  onReject,
  onReview,
  approveBlocked = null,
}: {
  sending: boolean;
  /** why approving is not possible (a banned account): the button is disabled with this note */
  approveBlocked?: string | null;
  pendingStatus: 'approved' | 'rejected' | undefined;
  onApprove(): void;
  onReject(reason: RejectionReason): void;
  onReview(): void;
}) {
  const { t } = useTranslation('adminLists');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const reject = () => {
    if (isRejectionReason(reason)) onReject(reason);
    else setReasonError(t('selectRejectionReason'));
  };
  return (
    <div className="al-quick" data-testid="quick-actions">
      <button
        type="button"
        className="btn btn-success"
        disabled={sending || approveBlocked !== null}
        onClick={onApprove}
        aria-describedby={approveBlocked ? 'quick-approve-blocked' : undefined}
        data-testid="quick-approve"
      >
        {pendingStatus === 'approved' ? t('reviewForm.sending') : t('evidence.quickApprove')}
      </button>
      <div className="al-quick-reject">
        <div className={`field${reasonError ? ' has-error' : ''}`}>
          <label htmlFor="quick-reason">{t('evidence.quickReason')}</label>
          <select
            id="quick-reason"
            value={reason}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? 'quick-reason-error' : undefined}
            onChange={(e) => {
              setReason(e.target.value);
              setReasonError(null);
            }}
          >
            <option value="">{t('evidence.chooseReason')}</option>
            {REJECTION_REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`rejectionReasons.${r}`)}
              </option>
            ))}
          </select>
          {reasonError && (
            <p className="field-error" id="quick-reason-error" role="alert">
              {reasonError}
            </p>
          )}
        </div>
        <button
          type="button"
          className="btn btn-danger"
          disabled={sending}
          onClick={reject}
          data-testid="quick-reject"
        >
          {pendingStatus === 'rejected' ? t('reviewForm.sending') : t('evidence.quickReject')}
        </button>
      </div>
      <button type="button" className="btn btn-outline" onClick={onReview} data-testid="full-review">
        {t('evidence.fullReview')}
      </button>
    </div>
  );
}
