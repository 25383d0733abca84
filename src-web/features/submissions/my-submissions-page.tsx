import { useTranslation } from 'react-i18next';

// Replaced by the submissions list of the worker-flow issue.
export function MySubmissionsPage() {
  const { t } = useTranslation();
  return (
    <section className="container section">
      <h1>{t('nav.myTasks')}</h1>
    </section>
  );
}
