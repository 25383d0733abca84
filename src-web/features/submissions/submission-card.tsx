import type { SubmissionDto } from '@contract/submissions';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { ProofContent } from '../../components/proof-content';
import { ProofThumb } from '../../components/proof-thumb';
import { shownFeedback } from '../../lib/feedback';
import { formatDateTime, formatMoney } from '../../lib/format';

/** One submission: its task, when it was sent, its status, the note, the review and the actions. */
export function SubmissionCard({
  submission: s,
  onViewProof,
  onRestart,
  onAppeal,
  restarting,
}: {
  submission: SubmissionDto;
  onViewProof(): void;
  onRestart(): void;
  onAppeal(): void;
  restarting: boolean;
}) {
  const { t } = useTranslation('submissions');
  const reason = s.rejectionReason
    ? t(`rejectionReasons.${s.rejectionReason}`, { defaultValue: s.rejectionReason })
    : null;
  const feedback = shownFeedback(t, s);
  const hasReview = s.status !== 'pending' && (feedback || reason);
  return (
    <article className="card submission-card" data-testid="submission-card" data-status={s.status}>
      <header className="submission-head">
        <h2 className="submission-title">
          <Link to={paths.task(s.task._id)}>{s.task.title}</Link>
        </h2>
        <span className={`badge badge-${s.status}`} data-testid="submission-status">
          {t(`status.${s.status}`)}
        </span>
      </header>
      <p className="muted small">
        {t('card.submittedAt')}: <time dateTime={s.createdAt}>{formatDateTime(s.createdAt)}</time>
      </p>
      {s.autoApproveAt && (
        <p className="small" data-testid="auto-approve-at">
          {t('card.autoApproveAt')}: <time dateTime={s.autoApproveAt}>{formatDateTime(s.autoApproveAt)}</time>
        </p>
      )}
      {s.autoApproved && (
        <p className="small" data-testid="auto-approved">
          {t('card.autoApproved')}
        </p>
      )}
      {s.proofType !== 'screenshot' && (
        <div className="submission-block">
          <h3>{t('card.proof')}</h3>
          <ProofContent item={s} />
        </div>
      )}
      <div className="submission-block">
        <h3>{t('card.description')}</h3>
        <p className={s.description ? 'pre-line' : 'muted'}>{s.description || t('card.noDescription')}</p>
      </div>
      {hasReview && (
        <div className={`submission-block review-${s.status}`} data-testid="submission-feedback">
          <h3>{s.status === 'approved' ? t('card.approvalMessage') : t('card.rejectionReason')}</h3>
          {reason && <p className="review-reason">{reason}</p>}
          {feedback && <p className="pre-line">{feedback}</p>}
        </div>
      )}
      {s.appeal && (
        <div className={`submission-block appeal-${s.appeal.status}`} data-testid="submission-appeal">
          <h3>
            {t('appeal.yours')}{' '}
            <span className={`badge badge-appeal-${s.appeal.status}`} data-testid="appeal-status">
              {t(`appeal.status.${s.appeal.status}`)}
            </span>
          </h3>
          <p className="pre-line">{s.appeal.message}</p>
          {s.appeal.response && (
            <p className="pre-line">
              <strong>{t('appeal.response')}:</strong> {s.appeal.response}
            </p>
          )}
        </div>
      )}
      {s.status === 'approved' && (
        <p className="submission-reward" data-testid="submission-reward">
          {t('card.rewardEarned')}: <strong>{formatMoney(s.reward)}</strong>
        </p>
      )}
      <div className="submission-actions">
        <ProofThumb item={s} title={s.task.title} onOpen={onViewProof} />
        {s.proofImageUrl && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={onViewProof}
            data-testid="view-proof"
          >
            {t('card.viewProof')}
          </button>
        )}
        <Link className="btn btn-outline btn-sm" to={paths.task(s.task._id)}>
          {t('card.viewTask')}
        </Link>
        {s.appealable && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={onAppeal}
            data-testid="appeal-open"
          >
            {t('appeal.open')}
          </button>
        )}
        {s.status === 'rejected' && s.appeal?.status !== 'pending' && (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={onRestart}
            disabled={restarting}
            data-testid="restart-submission"
          >
            {restarting ? t('common:status.wait') : t('card.restart')}
          </button>
        )}
      </div>
    </article>
  );
}
