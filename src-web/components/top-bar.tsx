import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import { paths } from '../app/paths';
import { useAuth } from '../lib/auth';
import { useSettings } from '../lib/settings';
import { LanguageSwitch } from './language-switch';

// the bell and the account menu show only to someone signed in: a visitor's first page loads neither
const SignedInActions = lazy(() =>
  import('./signed-in-actions').then((m) => ({ default: m.SignedInActions })),
);

export function TopBar() {
  const { user } = useAuth();
  const settings = useSettings();
  const { t } = useTranslation();
  return (
    <header className="topbar">
      <div className="container topbar-inner">
        <Link
          to={user ? paths.tasks : paths.home}
          className={settings.site.logo ? 'brand brand-with-logo' : 'brand'}
          data-testid="site-brand"
        >
          <img className="brand-logo" src={settings.site.logo || '/icon.svg'} alt="" height={28} />
          <span>{settings.site.name}</span>
        </Link>
        <nav className="topnav" aria-label={t('nav.main')}>
          {!user && (
            <NavLink to={paths.home} end>
              {t('nav.home')}
            </NavLink>
          )}
          <NavLink to={paths.tasks}>{t('nav.tasks')}</NavLink>
          {user && <NavLink to={paths.myTasks}>{t('nav.myTasks')}</NavLink>}
          {user && <NavLink to={paths.earnings}>{t('nav.earnings')}</NavLink>}
          {user?.role === 'admin' && <NavLink to={paths.admin}>{t('nav.admin')}</NavLink>}
        </nav>
        <div className="topbar-actions">
          <LanguageSwitch />
          {user ? (
            <Suspense fallback={null}>
              <SignedInActions />
            </Suspense>
          ) : (
            <div className="auth-links">
              <Link className="btn btn-ghost" to={paths.login}>
                {t('nav.login')}
              </Link>
              <Link className="btn btn-primary hide-sm" to={paths.register}>
                {t('nav.register')}
              </Link>
            </div>
          )}
        </div>
      </div>
    </header>
  );
}
