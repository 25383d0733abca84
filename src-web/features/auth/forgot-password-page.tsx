import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { usePageTitle } from '../../lib/page-title';
import { useSettings } from '../../lib/settings';

/** No e-mail reset: support sets a new password from the admin panel. */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  usePageTitle(t('common:titles.forgotPassword'));
  const { contact } = useSettings();
  return (
    <section className="container narrow auth-page">
      <div className="card auth-card">
        <h1>{t('forgot.title')}</h1>
        <p>{t('forgot.intro')}</p>
        <ol className="steps-list">
          <li>{t('forgot.step1')}</li>
          <li>{t('forgot.step2')}</li>
          <li>{t('forgot.step3')}</li>
        </ol>
        <a
          className="btn btn-primary btn-block"
          href={`mailto:${contact.email}?subject=${encodeURIComponent(t('forgot.subject'))}`}
        >
          {t('forgot.contact', { email: contact.email })}
        </a>
        <p className="auth-switch">
          <Link to={paths.login}>{t('forgot.back')}</Link>
        </p>
      </div>
    </section>
  );
}
