import { useTranslation } from 'react-i18next';

// Replaced by the dashboard of the admin-panel issue.
export function DashboardPage() {
  const { t } = useTranslation('admin');
  return (
    <section>
      <h1 data-testid="admin-title">{t('menu.dashboard')}</h1>
    </section>
  );
}
