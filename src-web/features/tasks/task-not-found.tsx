import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';

/** A task id that does not exist (or that this viewer may not see). */
export function TaskNotFound() {
  const { t } = useTranslation('tasks');
  return (
    <section className="container narrow center-card card" data-testid="task-not-found">
      <h1>{t('detail.notFoundTitle')}</h1>
      <p>{t('detail.notFound')}</p>
      <Link className="btn btn-primary" to={paths.tasks}>
        {t('detail.backToTasks')}
      </Link>
    </section>
  );
}

/** A task that failed to load for another reason, with a retry. */
export function TaskLoadError({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation('tasks');
  return (
    <section className="container narrow center-card card" role="alert">
      <p className="notice notice-error">{t('detail.loadError')}</p>
      <div className="row-center">
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          {t('common:actions.retry')}
        </button>
        <Link className="btn btn-outline" to={paths.tasks}>
          {t('detail.backToTasks')}
        </Link>
      </div>
    </section>
  );
}
