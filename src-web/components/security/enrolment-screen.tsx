import { useTranslation } from 'react-i18next';
import { TwoFactorPanel } from './two-factor-panel';

/** All an admin without two-factor sees while the settings require it: its enrolment. */
export function EnrolmentScreen() {
  const { t } = useTranslation('security');
  return (
    <main className="container narrow section" data-testid="two-factor-enrolment">
      <h1>{t('enrolment.title')}</h1>
      <p>{t('enrolment.intro')}</p>
      <TwoFactorPanel />
    </main>
  );
}
