import { useTranslation } from 'react-i18next';
import { useAuth } from '../lib/auth';

export function SuspendedNotice() {
  const { user } = useAuth();
  const { t } = useTranslation();
  if (user?.status !== 'suspended') return null;
  return (
    <div className="notice notice-warning" role="alert" data-testid="suspended-notice">
      <strong>{t('suspended.title')}</strong> {t('suspended.message')}
    </div>
  );
}
