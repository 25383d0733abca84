import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { useAuth } from '../lib/auth';
import { BottomBar } from './bottom-bar';
import { Footer } from './footer';
import { InstallBanner } from './install-banner';
import { SuspendedNotice } from './suspended-notice';
import { TopBar } from './top-bar';

const BanModal = lazy(() => import('./ban-modal').then((m) => ({ default: m.BanModal })));

/**
 * The ban modal's code (and the dialog it is built on) loads at the first ban, not with every
 * first page; once shown it stays mounted, so closing it works as it always did.
 */
function BanModalWhenBanned() {
  const { banReason } = useAuth();
  const [wanted, setWanted] = useState(false);
  if (banReason !== null && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <BanModal />
    </Suspense>
  );
}

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
      <BanModalWhenBanned />
      <ScrollRestoration />
    </div>
  );
}
