import { Outlet, ScrollRestoration } from 'react-router-dom';
import { BanModal } from './ban-modal';
import { BottomBar } from './bottom-bar';
import { Footer } from './footer';
import { InstallBanner } from './install-banner';
import { SuspendedNotice } from './suspended-notice';
import { TopBar } from './top-bar';

/** Top bar, page, footer; the bottom bar on phones; the ban modal and the install banner. */
export function Layout() {
  return (
    <div className="app-shell">
      <TopBar />
      <SuspendedNotice />
      <main className="app-main" id="main">
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
