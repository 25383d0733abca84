import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { request } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { useLinkToken } from './reset-password-page';

/** The page a verification mail's link opens: the link is used once, on arrival. */
export function VerifyEmailPage() {
  const { t } = useTranslation(['auth', 'common']);
  usePageTitle(t('common:titles.verifyEmail'));
  const token = useLinkToken();
  const { user } = useAuth();
  const [state, setState] = useState<'checking' | 'verified' | 'invalid'>(token ? 'checking' : 'invalid');
  const asked = useRef(false);
  useEffect(() => {
    // once, even under React's development double effects: a second use of a token fails
    if (!token || asked.current) return;
    asked.current = true;
    request('/auth/verify-email', { method: 'POST', body: { token } }).then(
      () => setState('verified'),
      () => setState('invalid'),
    );
  }, [token]);

  return (
    <section className="container narrow auth-page">
      <div className="card auth-card">
        <h1>{t('mail.verifyTitle')}</h1>
        {state === 'checking' && <p role="status">{t('mail.verifying')}</p>}
        {state === 'verified' && (
          <p className="notice notice-success" role="status">
            {t('mail.verified')}
          </p>
        )}
        {state === 'invalid' && (
          <div className="notice notice-error" role="alert">
            {t('mail.invalidLink')}
          </div>
        )}
        <p className="auth-switch">
          <Link to={user ? paths.profile : paths.login}>
            {user ? t('mail.toProfile') : t('mail.toLogin')}
          </Link>
        </p>
      </div>
    </section>
  );
}
