import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { BanModal } from '../../../components/ban-modal';
import { MenuIcon } from '../../../components/icons';
import { SendNotificationDialog } from '../../../components/send-notification-dialog';
import { useAuth } from '../../../lib/auth';
import { AdminDrawer } from './admin-drawer';
import { BellIcon } from './admin-icons';
import { AdminBrand, AdminMenu } from './admin-menu';

/**
 * The admin area: a side menu beside the page on wide screens, a menu button opening a drawer
 * at phone width, and the send-notification entry in the top bar and the menu.
 */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const { user } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  const [notifyOpen, setNotifyOpen] = useState(false);
  const openNotify = () => setNotifyOpen(true);
  return (
    <div className="admin-shell">
      <a className="skip-link" href="#main">
        {t('common:nav.skipToContent')}
      </a>
      <div className="admin-side">
        <AdminBrand />
        <AdminMenu onNotify={openNotify} />
      </div>
      <div className="admin-main">
        <header className="admin-top">
          <button
            type="button"
            className="icon-btn admin-menu-button"
            aria-label={t('menu.open')}
            aria-expanded={menuOpen}
            aria-controls="admin-drawer"
            onClick={() => setMenuOpen(true)}
          >
            <MenuIcon />
          </button>
          <div className="admin-top-brand">
            <AdminBrand />
          </div>
          <span className="muted admin-top-user">{user?.email}</span>
          <button
            type="button"
            className="btn btn-primary btn-sm admin-notify-button"
            aria-label={t('menu.notify')}
            onClick={openNotify}
            data-testid="open-notify"
          >
            <BellIcon size={16} />
            <span className="admin-notify-label">{t('menu.notify')}</span>
          </button>
        </header>
        <main className="admin-content" id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <AdminDrawer open={menuOpen} onClose={() => setMenuOpen(false)} onNotify={openNotify} />
      <SendNotificationDialog open={notifyOpen} onClose={() => setNotifyOpen(false)} />
      <BanModal />
      <ScrollRestoration />
    </div>
  );
}
