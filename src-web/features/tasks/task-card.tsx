import type { TaskDto } from '@contract/tasks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { StarIcon } from '../../components/icons';
import { humanDuration } from '../../lib/duration';
import { formatDate, formatMoney } from '../../lib/format';
import type { OfferState, TaskOffer } from '../../lib/task-offer';

/** The user's own states worth a badge on a card, with its colour (an available task needs none). */
const BADGES: Partial<Record<OfferState, string>> = {
  in_progress: 'badge badge-in_progress',
  waiting: 'badge badge-pending',
  rejected: 'badge badge-rejected',
  appealed: 'badge badge-pending',
  approved: 'badge badge-approved',
  expired: 'badge',
  closed: 'badge',
  suspended: 'badge badge-rejected',
};

/**
 * One task of the list; the whole card opens the task, through the link on its title. A task the
 * user has started shows where they stand with it.
 */
export function TaskCard({ task, offer }: { task: TaskDto; offer?: TaskOffer }) {
  const { t } = useTranslation(['tasks', 'common']);
  return (
    <article className={`card task-card${task.isFeatured ? ' is-featured' : ''}`} data-testid="task-card">
      <div className="task-badges">
        {task.isFeatured && (
          <span className="badge badge-star" data-testid="featured-badge">
            <StarIcon size={12} />
            {t('card.featured')}
          </span>
        )}
        <span className="badge">{t(`common:categories.${task.category}`)}</span>
        <span className={`badge badge-difficulty-${task.difficulty}`}>
          {t(`common:difficulties.${task.difficulty}`)}
        </span>
        {offer && BADGES[offer.state] && (
          <span
            className={BADGES[offer.state]}
            data-testid="task-card-state"
            data-state={offer.state}
            data-offer={offer.action}
          >
            {t(`common:offer.${offer.state}.badge`)}
          </span>
        )}
      </div>
      <h2 className="task-card-title">
        <Link to={paths.task(task._id)} className="stretched-link">
          {task.title}
        </Link>
      </h2>
      <p className="task-card-desc">{task.description}</p>
      <div className="task-card-foot">
        <span className="task-reward">{formatMoney(task.reward)}</span>
        <span className="task-card-meta">
          {task.estimatedTime !== null && (
            <span>{t('card.about', { duration: humanDuration(t, task.estimatedTime) })}</span>
          )}
          <span>
            {task.deadline ? t('card.until', { date: formatDate(task.deadline) }) : t('card.noDeadline')}
          </span>
        </span>
      </div>
    </article>
  );
}
