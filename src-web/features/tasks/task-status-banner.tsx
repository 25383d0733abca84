import type { UserTaskDto } from '@contract/tasks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { useAuth } from '../../lib/auth';
import { shownFeedback } from '../../lib/feedback';
import { formatMoney } from '../../lib/format';
import { useSettings } from '../../lib/settings';
import type { OfferState, TaskOffer } from '../../lib/task-offer';
import { formatCountdown } from '../../lib/use-now';

const KIND: Record<OfferState, string> = {
  available: 'notice-info',
  in_progress: 'notice-progress',
  waiting: 'notice-progress',
  approved: 'notice-success',
  rejected: 'notice-error',
  appealed: 'notice-progress',
  expired: 'notice-warning',
  closed: 'notice-info',
  suspended: 'notice-warning',
};

/** Where the signed-in user stands with this task, and the one thing it lets them do next. */
export function TaskStatusBanner({
  offer,
  record,
  reward,
  now,
  onRestart,
  restarting,
}: {
  offer: TaskOffer;
  record: UserTaskDto | null;
  reward: number;
  /** the page's clock, for the countdown */
  now: number;
  onRestart(): void;
  restarting: boolean;
}) {
  const { t } = useTranslation(['common', 'submissions']);
  const { user } = useAuth();
  const settings = useSettings();
  const { state } = offer;
  const submission = record?.submission;
  const amount = formatMoney(submission?.reward ?? reward);
  const feedback = submission ? shownFeedback(t, submission) : null;
  const reviewed = state === 'rejected' || state === 'appealed';
  return (
    <div
      className={`notice task-state ${KIND[state]}`}
      data-testid="task-state"
      data-state={state}
      data-offer={offer.action}
    >
      <p className="task-state-title">
        <span className={`badge badge-${state}`}>{t(`offer.${state}.badge`)}</span>
        <strong>{t(`offer.${state}.title`)}</strong>
      </p>
      <p className="task-state-text">
        {t(offer.appealable ? 'offer.rejected.textAppeal' : `offer.${state}.text`, { amount })}
      </p>
      {state === 'in_progress' && record?.expiresAt && (
        <p className="task-countdown">
          {t('offer.timeLeft')}{' '}
          <time dateTime={record.expiresAt} data-testid="time-left">
            {formatCountdown(Date.parse(record.expiresAt) - now)}
          </time>
        </p>
      )}
      {state === 'suspended' && (
        <>
          {user?.banReason && (
            <p data-testid="suspended-reason">
              <strong>{t('offer.reason')}:</strong> {user.banReason}
            </p>
          )}
          <p>
            <a href={`mailto:${settings.contact.email}`} data-testid="suspended-contact">
              {t('offer.contact', { email: settings.contact.email })}
            </a>
          </p>
        </>
      )}
      {reviewed && submission?.rejectionReason && (
        <p>
          <strong>{t('offer.reason')}:</strong>{' '}
          {t(`submissions:rejectionReasons.${submission.rejectionReason}`, {
            defaultValue: submission.rejectionReason,
          })}
        </p>
      )}
      {(reviewed || state === 'approved') && feedback && (
        <p className="pre-line">
          <strong>{t('offer.feedback')}:</strong> {feedback}
        </p>
      )}
      <div className="task-state-actions">
        {offer.action === 'finish' && (
          <a className="btn btn-primary" href="#proof-form" data-testid="to-proof">
            {t('offer.action.toProof')}
          </a>
        )}
        {offer.action === 'restart' && (
          <button
            type="button"
            className="btn btn-primary"
            onClick={onRestart}
            disabled={restarting}
            data-testid="restart-task"
          >
            {restarting ? t('common:status.wait') : t('offer.action.restart')}
          </button>
        )}
        {offer.appealable && (
          <Link className="btn btn-outline" to={paths.myTasksSection('rejected')} data-testid="appeal-link">
            {t('offer.action.appeal')}
          </Link>
        )}
        {(state === 'waiting' || state === 'approved' || state === 'appealed') && (
          <Link to={paths.myTasksSection(state)}>{t('nav.myTasks')}</Link>
        )}
      </div>
    </div>
  );
}
