import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { paths } from '../../app/paths';
import { BanModal } from '../../components/ban-modal';
import { LanguageSwitch } from '../../components/language-switch';
import { useAuth } from '../../lib/auth';

/** The admin area: a side menu beside the page (a top strip at phone width). */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const { user } = useAuth();
  const items = [
    { to: paths.admin, label: t('menu.dashboard'), end: true },
    { to: paths.adminTasks, label: t('menu.tasks') },
    { to: paths.adminUsers, label: t('menu.users') },
    { to: paths.adminSubmissions, label: t('menu.submissions') },
    { to: paths.adminWithdrawals, label: t('menu.withdrawals') },
    { to: paths.adminSettings, label: t('menu.settings') },
  ];
  return (
    <div className="admin-shell">
      <aside className="admin-side" aria-label={t('menu.label')}>
        <Link to={paths.admin} className="brand admin-brand">
          <img src="/icon.svg" alt="" width={28} height={28} />
          <span>{t('title')}</span>
        </Link>
        <nav className="admin-nav">
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="admin-side-foot">
          <LanguageSwitch />
          <Link to={paths.tasks}>{t('menu.backToSite')}</Link>
        </div>
      </aside>
      <div className="admin-main">
        <header className="admin-top">
          <span className="muted">{user?.email}</span>
        </header>
        <main className="admin-content" id="main">
          <Outlet />
        </main>
      </div>
      <BanModal />
    </div>
  );
}
