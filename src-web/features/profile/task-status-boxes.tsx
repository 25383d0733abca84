import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import type { MyTaskSection } from '../../lib/task-offer';

// the spec's three boxes keep their test ids; an appeal gets a box of its own while one waits
const BOXES = [
  ['inProgress', 'in_progress', 'badge-in_progress'],
  ['waiting', 'waiting', 'badge-pending'],
  ['rejected', 'rejected', 'badge-rejected'],
  ['appealed', 'appealed', 'badge-pending'],
] as const;

/** How many tasks are in progress, waiting, rejected (and appealed); each box opens its section of my tasks. */
export function TaskStatusBoxes({ counts }: { counts: Record<MyTaskSection, number> | null }) {
  const { t } = useTranslation(['profile', 'common']);
  return (
    <section className="card profile-task-status" aria-labelledby="profile-task-status-title">
      <div className="row-between">
        <h2 id="profile-task-status-title">{t('taskStatus.title')}</h2>
        <Link to={paths.myTasks}>{t('common:nav.myTasks')}</Link>
      </div>
      <ul className="status-boxes">
        {BOXES.filter(([key, section]) => key !== 'appealed' || (counts?.[section] ?? 0) > 0).map(
          ([key, section, tone]) => (
            <li key={key} className={`status-box ${tone}`} data-testid={`status-${key}`}>
              <Link to={paths.myTasksSection(section)} className="status-box-link">
                <span className="status-count">{counts ? counts[section] : '…'}</span>
                <span className="status-label">{t(`common:offer.${section}.badge`)}</span>
              </Link>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}
