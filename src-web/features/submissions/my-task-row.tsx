import type { UserTaskDto } from '@contract/tasks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { formatDateTime, formatMoney } from '../../lib/format';
import { taskOffer } from '../../lib/task-offer';
import { formatCountdown } from '../../lib/use-now';

/** One started task in my tasks: its state word, what it is waiting for, and its one next step. */
export function MyTaskRow({
  record: r,
  now,
  suspended,
  onRestart,
  restarting,
  onAppeal,
}: {
  record: UserTaskDto;
  now: number;
  suspended: boolean;
  onRestart(): void;
  restarting: boolean;
  onAppeal(): void;
}) {
  const { t } = useTranslation(['submissions', 'common']);
  const offer = taskOffer(r, { now, suspended });
  const sub = r.submission;
  return (
    <li
      className="card my-task"
      data-testid="my-task"
      data-task={r.task._id}
      data-state={offer.state}
      data-offer={offer.action}
    >
      <div className="my-task-head">
        <h2 className="my-task-title">
          <Link to={paths.task(r.task._id)}>{r.task.title}</Link>
        </h2>
        <span className={`badge badge-${offer.state}`}>{t(`common:offer.${offer.state}.badge`)}</span>
      </div>
      <p className="muted small my-task-meta">
        {offer.state === 'in_progress' && r.expiresAt ? (
          <>
            {t('common:offer.timeLeft')}{' '}
            <time dateTime={r.expiresAt} data-testid="my-task-time-left">
              {formatCountdown(Date.parse(r.expiresAt) - now)}
            </time>
          </>
        ) : sub ? (
          <>
            {t('card.submittedAt')}: <time dateTime={sub.createdAt}>{formatDateTime(sub.createdAt)}</time>
          </>
        ) : (
          <>
            {t('myTasks.startedAt')}: <time dateTime={r.startedAt}>{formatDateTime(r.startedAt)}</time>
          </>
        )}
        {' · '}
        {offer.state === 'approved' && sub ? (
          <strong className="plus">+{formatMoney(sub.reward)}</strong>
        ) : (
          formatMoney(sub?.reward ?? r.task.reward)
        )}
      </p>
      {(offer.state === 'rejected' || offer.state === 'appealed') && sub?.rejectionReason && (
        <p className="small">
          <strong>{t('common:offer.reason')}:</strong>{' '}
          {t(`rejectionReasons.${sub.rejectionReason}`, { defaultValue: sub.rejectionReason })}
        </p>
      )}
      {offer.state === 'appealed' && <p className="small">{t('common:offer.appealed.text')}</p>}
      <div className="my-task-actions">
        {offer.action === 'finish' && (
          <Link className="btn btn-primary btn-sm" to={`${paths.task(r.task._id)}#proof-form`}>
            {t('common:offer.action.finish')}
          </Link>
        )}
        {offer.action === 'start' && (
          <Link className="btn btn-primary btn-sm" to={paths.task(r.task._id)}>
            {t('common:offer.action.startAgain')}
          </Link>
        )}
        {offer.action === 'restart' && (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={onRestart}
            disabled={restarting}
            data-testid="my-task-restart"
          >
            {restarting ? t('common:status.wait') : t('common:offer.action.restart')}
          </button>
        )}
        {offer.appealable && (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={onAppeal}
            data-testid="my-task-appeal"
          >
            {t('common:offer.action.appeal')}
          </button>
        )}
        {offer.action === 'none' && (
          <Link className="btn btn-outline btn-sm" to={paths.task(r.task._id)}>
            {t('common:offer.action.open')}
          </Link>
        )}
      </div>
    </li>
  );
}
