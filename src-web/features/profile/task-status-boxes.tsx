import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';

/** How many tasks are in progress, waiting approval and rejected, with a link to /my-submissions. */
export function TaskStatusBoxes({
  counts,
}: {
  counts: { inProgress: number; waiting: number; rejected: number } | null;
}) {
  const { t } = useTranslation('profile');
  const boxes = [
    ['inProgress', 'badge-in_progress'],
    ['waiting', 'badge-pending'],
    ['rejected', 'badge-rejected'],
  ] as const;
  return (
    <section className="card profile-task-status" aria-labelledby="profile-task-status-title">
      <div className="row-between">
        <h2 id="profile-task-status-title">{t('taskStatus.title')}</h2>
        <Link to={paths.mySubmissions}>{t('taskStatus.link')}</Link>
      </div>
      <ul className="status-boxes">
        {boxes.map(([key, tone]) => (
          <li key={key} className={`status-box ${tone}`} data-testid={`status-${key}`}>
            <span className="status-count">{counts ? counts[key] : '…'}</span>
            <span className="status-label">{t(`taskStatus.${key}`)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
