import type { AdminSubmissionDto } from '@contract/admin';
import { REJECTION_REASONS } from '@contract/constants';
import { MAX_FEEDBACK_LENGTH } from '@contract/review';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ItemFormModal } from '../../../components/admin/item-form-modal';
import { Field } from '../../../components/field';
import { checkReviewForm, isRejectionReason, type ReviewField, type ReviewValues } from './review-form';
import { useReview } from './use-review';

/** The review: a result, a required feedback and, for a rejection, a preset reason. */
export function ReviewModal({ item, onClose }: { item: AdminSubmissionDto | null; onClose(): void }) {
  const { t } = useTranslation('adminLists');
  return (
    <ItemFormModal
      item={item}
      title={t('reviewForm.title', { title: item?.task.title ?? '' })}
      onClose={onClose}
    >
      {(current) => <ReviewForm item={current} onClose={onClose} />}
    </ItemFormModal>
  );
}

function ReviewForm({ item, onClose }: { item: AdminSubmissionDto; onClose(): void }) {
  const { t } = useTranslation('adminLists');
  const review = useReview(item._id, onClose);
  // a banned account's proof can only be rejected
  const banned = item.user.status === 'banned';
  const [values, setValues] = useState<ReviewValues>({
    status: banned ? 'rejected' : 'approved',
    feedback: '',
    rejectionReason: '',
  });
  const [errors, setErrors] = useState<Partial<Record<ReviewField, string>>>({});
  const set = (patch: Partial<ReviewValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k as ReviewField];
      return next;
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkReviewForm(values);
    if (!checked.ok) {
      setErrors({ [checked.problem.field]: t(checked.problem.key) });
      return;
    }
    review.send(checked.request, 'submissionReviewError');
  };
  const invalid = (field: ReviewField) =>
    errors[field] ? { 'aria-invalid': true, 'aria-describedby': `review-${field}-error` } : {};

  return (
    <form onSubmit={submit} noValidate data-testid="review-form">
      {banned && (
        <p className="notice notice-error" id="review-approve-blocked" data-testid="standing-note">
          {t('standing.bannedNoApprove')}
        </p>
      )}
      <fieldset className="al-result">
        <legend>{t('reviewForm.result')}</legend>
        {(['approved', 'rejected'] as const).map((status) => (
          <label key={status} className="chip-radio">
            <input
              type="radio"
              name="review-result"
              value={status}
              checked={values.status === status}
              disabled={banned && status === 'approved'}
              aria-describedby={banned && status === 'approved' ? 'review-approve-blocked' : undefined}
              onChange={() => set({ status })}
              data-testid={`review-result-${status}`}
            />
            <span>{t(status === 'approved' ? 'reviewForm.approve' : 'reviewForm.reject')}</span>
          </label>
        ))}
      </fieldset>
      {values.status === 'rejected' && (
        <Field id="review-rejectionReason" label={t('reviewForm.reason')} error={errors.rejectionReason}>
          <select
            id="review-rejectionReason"
            value={values.rejectionReason}
            onChange={(e) =>
              set({ rejectionReason: isRejectionReason(e.target.value) ? e.target.value : '' })
            }
            {...invalid('rejectionReason')}
          >
            <option value="">{t('reviewForm.chooseReason')}</option>
            {REJECTION_REASONS.map((r) => (
              <option key={r} value={r}>
                {t(`rejectionReasons.${r}`)}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field id="review-feedback" label={t('reviewForm.feedback')} error={errors.feedback}>
        <textarea
          id="review-feedback"
          rows={4}
          maxLength={MAX_FEEDBACK_LENGTH}
          value={values.feedback}
          onChange={(e) => set({ feedback: e.target.value })}
          {...invalid('feedback')}
        />
        <small className="muted">{t('reviewForm.feedbackHint')}</small>
      </Field>
      {review.failure && (
        <p className="notice notice-error" role="alert" data-testid="review-failure">
          {review.failure}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-outline" onClick={onClose}>
          {t('common:actions.cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={review.sending}
          data-testid="review-submit"
        >
          {review.sending ? t('reviewForm.sending') : t('reviewForm.submit')}
        </button>
      </div>
    </form>
  );
}
