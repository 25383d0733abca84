import { useTranslation } from 'react-i18next';

// Replaced by the task list of the worker-flow issue.
export function TasksPage() {
  const { t } = useTranslation();
  return (
    <section className="container section">
      <h1 data-testid="tasks-title">{t('nav.tasks')}</h1>
    </section>
  );
}
