import type { UserTaskDto } from '@contract/tasks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { shownFeedback } from '../../lib/feedback';
import { formatMoney } from '../../lib/format';
import { formatCountdown } from '../../lib/use-now';
import type { TaskPageState } from './task-state';

const KIND: Record<TaskPageState, string> = {
  available: 'notice-info',
  in_progress: 'notice-progress',
  expired: 'notice-warning',
  closed: 'notice-info',
  completed: 'notice-progress',
  approved: 'notice-success',
  rejected: 'notice-error',
};

/** Where the signed-in user stands with this task; a rejected one offers the restart. */
export function TaskStatusBanner({
  state,
  record,
  reward,
  now,
  onRestart,
  restarting,
}: {
  state: TaskPageState;
  record: UserTaskDto | null;
  reward: number;
  /** the page's clock, for the countdown */
  now: number;
  onRestart(): void;
  restarting: boolean;
}) {
  const { t } = useTranslation(['tasks', 'submissions']);
  const submission = record?.submission;
  const amount = formatMoney(submission?.reward ?? reward);
  const feedback = submission ? shownFeedback(t, submission) : null;
  return (
    <div className={`notice task-state ${KIND[state]}`} data-testid="task-state" data-state={state}>
      <p className="task-state-title">
        <span className={`badge badge-${state}`}>{t(`state.${state}.badge`)}</span>
        <strong>{t(`state.${state}.title`)}</strong>
      </p>
      <p className="task-state-text">{t(`state.${state}.text`, { amount })}</p>
      {state === 'in_progress' && record?.expiresAt && (
        <p className="task-countdown">
          {t('state.timeLeft')}{' '}
          <time dateTime={record.expiresAt} data-testid="time-left">
            {formatCountdown(Date.parse(record.expiresAt) - now)}
          </time>
        </p>
      )}
      {state === 'rejected' && submission?.rejectionReason && (
        <p>
          <strong>{t('state.reason')}:</strong>{' '}
          {t(`submissions:rejectionReasons.${submission.rejectionReason}`, {
            defaultValue: submission.rejectionReason,
          })}
        </p>
      )}
      {(state === 'rejected' || state === 'approved') && feedback && (
        <p className="pre-line">
          <strong>{t('state.feedback')}:</strong> {feedback}
        </p>
      )}
      {state === 'rejected' && (
        <button
          type="button"
          className="btn btn-primary"
          onClick={onRestart}
          disabled={restarting}
          data-testid="restart-task"
        >
          {restarting ? t('common:status.wait') : t('state.restart')}
        </button>
      )}
      {(state === 'completed' || state === 'approved') && (
        <Link to={paths.mySubmissions}>{t('state.toSubmissions')}</Link>
      )}
    </div>
  );
}
