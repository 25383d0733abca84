import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { formatDateTime, formatMoney } from '../../lib/format';
import type { Activity } from './activity';

function ActivityItem({ item }: { item: Activity }) {
  const { t } = useTranslation(['profile', 'common']);
  const { offer } = item;
  return (
    <li
      className="activity"
      data-testid="activity"
      data-type={item.type}
      data-task={item.taskId}
      data-state={offer.state}
      data-offer={offer.action}
    >
      <span className={`activity-dot badge-${offer.state}`} aria-hidden="true" />
      <div className="activity-main">
        <p className="activity-title">
          <Link to={paths.task(item.taskId)}>{item.title}</Link>
        </p>
        <p className="activity-meta muted">
          <span>{t(`common:offer.${offer.state}.badge`)} · </span>
          <time dateTime={item.date}>{formatDateTime(item.date)}</time>
        </p>
      </div>
      <div className="activity-side">
        {item.type === 'task_completed' && item.amount !== null && (
          <span className="activity-amount plus">+{formatMoney(item.amount)}</span>
        )}
        {offer.action === 'restart' && (
          <Link className="btn btn-outline btn-sm" to={paths.task(item.taskId)}>
            {t('common:offer.action.restart')}
          </Link>
        )}
        {offer.action === 'finish' && (
          <Link className="btn btn-outline btn-sm" to={paths.task(item.taskId)}>
            {t('common:offer.action.finish')}
          </Link>
        )}
      </div>
    </li>
  );
}

/** The 5 latest events, newest first; each task event links to its task. */
export function RecentActivity({ items }: { items: Activity[] | null }) {
  const { t } = useTranslation(['profile', 'common']);
  return (
    <section className="card profile-activity" aria-labelledby="profile-activity-title">
      <h2 id="profile-activity-title">{t('activity.title')}</h2>
      {items === null ? (
        <p className="muted">{t('common:status.loading')}</p>
      ) : items.length === 0 ? (
        <p className="muted">{t('activity.empty')}</p>
      ) : (
        <ol className="activity-list">
          {items.map((item) => (
            <ActivityItem key={item.id} item={item} />
          ))}
        </ol>
      )}
    </section>
  );
}
