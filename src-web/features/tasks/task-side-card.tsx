import type { TaskDto } from '@contract/tasks';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '../../app/paths';
import { humanDuration } from '../../lib/duration';
import { formatDate, formatMoney } from '../../lib/format';
import type { TaskOffer } from '../../lib/task-offer';

const SAFE_LINK = /^https?:\/\/\S+$/i;

/** The reward, the task's facts and its main actions: start (or log in), and the task link. */
export function TaskSideCard({
  task,
  offer,
  signedIn,
  onStart,
  starting,
  startError,
}: {
  task: TaskDto;
  /** the one offer of this task to the signed-in worker (a suspended account gets none) */
  offer: TaskOffer;
  signedIn: boolean;
  onStart(): void;
  starting: boolean;
  startError: string | null;
}) {
  const { t } = useTranslation(['tasks', 'common', 'errors']);
  const location = useLocation();
  const full = task.remainingSlots <= 0;
  const link = task.taskLink && SAFE_LINK.test(task.taskLink) ? task.taskLink : null;
  return (
    <div className="card task-side" data-testid="task-side">
      <p className="task-side-reward">
        <span className="muted">{t('detail.reward')}</span>
        <span className="task-reward big" data-testid="task-reward">
          {formatMoney(task.reward)}
        </span>
      </p>
      <dl className="facts">
        <div>
          <dt>{t('detail.deadline')}</dt>
          <dd data-testid="task-deadline">
            {task.deadline ? formatDate(task.deadline) : t('detail.unlimited')}
          </dd>
        </div>
        <div>
          <dt>{t('detail.proofType')}</dt>
          <dd>{t(`common:proofTypes.${task.requiredProof}`)}</dd>
        </div>
        <div>
          <dt>{t('detail.maxCompletions')}</dt>
          <dd>{task.maxCompletions.toLocaleString('tr-TR')}</dd>
        </div>
        <div>
          <dt>{t('detail.slotsLeft')}</dt>
          <dd>{task.remainingSlots.toLocaleString('tr-TR')}</dd>
        </div>
        {task.estimatedTime !== null && (
          <div>
            <dt>{t('detail.estimatedTime')}</dt>
            <dd>{humanDuration(t, task.estimatedTime)}</dd>
          </div>
        )}
        <div>
          <dt>{t('detail.timeLimit')}</dt>
          <dd data-testid="time-limit">{humanDuration(t, task.timeLimitMinutes)}</dd>
        </div>
      </dl>
      {!signedIn && (
        <div className="notice notice-info login-prompt" data-testid="login-prompt">
          <p>{t('detail.loginPrompt')}</p>
          <Link className="btn btn-primary btn-block" to={paths.login} state={{ from: location.pathname }}>
            {t('detail.loginLink')}
          </Link>
        </div>
      )}
      {signedIn && offer.action === 'start' && (
        <>
          {full && <p className="notice notice-info">{t('errors:task_full')}</p>}
          <button
            type="button"
            className="btn btn-primary btn-block btn-lg"
            onClick={onStart}
            disabled={starting || full}
            data-testid="start-task"
          >
            {starting
              ? t('detail.starting')
              : offer.state === 'expired'
                ? t('common:offer.action.startAgain')
                : t('common:offer.action.start')}
          </button>
        </>
      )}
      {startError && (
        <p className="notice notice-error" role="alert" data-testid="start-error">
          {startError}
        </p>
      )}
      {link && (
        <a
          className="btn btn-outline btn-block"
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="task-link"
        >
          {t('detail.openLink')}
          <span className="sr-only"> {t('detail.newTab')}</span>
        </a>
      )}
    </div>
  );
}
