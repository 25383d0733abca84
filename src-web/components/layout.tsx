import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { BanModal } from './ban-modal';
import { BottomBar } from './bottom-bar';
import { Footer } from './footer';
import { InstallBanner } from './install-banner';
import { SuspendedNotice } from './suspended-notice';
import { TopBar } from './top-bar';

/** Top bar, page, footer; the bottom bar on phones; the ban modal and the install banner. */
export function Layout() {
  const { t } = useTranslation();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <TopBar />
      <SuspendedNotice />
      <main className="app-main" id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <BottomBar />
      <InstallBanner />
      <BanModal />
      <ScrollRestoration />
    </div>
  );
}
