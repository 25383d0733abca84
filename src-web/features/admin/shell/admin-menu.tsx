import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { CheckIcon, ListIcon, ShieldIcon, UserIcon, WalletIcon } from '../../../components/icons';
import { LanguageSwitch } from '../../../components/language-switch';
import { useSettings } from '../../../lib/settings';
import { BellIcon, GridIcon, SettingsIcon } from './admin-icons';

interface MenuItem {
  to: string;
  key: string;
  icon: ReactNode;
  end?: boolean;
}

const ITEMS: MenuItem[] = [
  { to: paths.admin, key: 'dashboard', icon: <GridIcon />, end: true },
  { to: paths.adminTasks, key: 'tasks', icon: <ListIcon size={18} /> },
  { to: paths.adminUsers, key: 'users', icon: <UserIcon size={18} /> },
  { to: paths.adminSubmissions, key: 'submissions', icon: <CheckIcon size={18} /> },
  { to: paths.adminWithdrawals, key: 'withdrawals', icon: <WalletIcon size={18} /> },
  { to: paths.adminSettings, key: 'settings', icon: <SettingsIcon /> },
  { to: paths.adminAudit, key: 'audit', icon: <ShieldIcon size={18} /> },
  { to: paths.adminSystem, key: 'system', icon: <SettingsIcon /> },
];

/** The admin menu: the pages, the send-notification entry, the language switch and the way back. */
export function AdminMenu({ onNavigate, onNotify }: { onNavigate?(): void; onNotify(): void }) {
  const { t } = useTranslation('admin');
  return (
    <>
      <nav className="admin-nav" aria-label={t('menu.label')}>
        {ITEMS.map((item) => (
          <NavLink key={item.key} to={item.to} end={item.end} onClick={onNavigate}>
            {item.icon}
            <span>{t(`menu.${item.key}`)}</span>
          </NavLink>
        ))}
        <button type="button" className="admin-nav-action" onClick={onNotify}>
          <BellIcon />
          <span>{t('menu.notify')}</span>
        </button>
      </nav>
      <div className="admin-side-foot">
        <LanguageSwitch />
        <Link to={paths.tasks} onClick={onNavigate}>
          {t('menu.backToSite')}
        </Link>
      </div>
    </>
  );
}

/** The logo and the panel's name, linking to the dashboard. */
export function AdminBrand({ onNavigate }: { onNavigate?(): void }) {
  const { t } = useTranslation('admin');
  const settings = useSettings();
  return (
    <Link
      to={paths.admin}
      className={settings.site.logo ? 'brand admin-brand brand-with-logo' : 'brand admin-brand'}
      onClick={onNavigate}
    >
      <img className="brand-logo" src={settings.site.logo || '/icon.svg'} alt="" height={28} />
      <span>{t('title')}</span>
    </Link>
  );
}
