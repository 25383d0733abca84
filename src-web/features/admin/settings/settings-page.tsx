import { type KeyboardEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Skeleton } from '../../../components/skeleton';
import { usePageTitle } from '../../../lib/page-title';
import { AccountSettings } from './account-settings';
import { ContactSettings } from './contact-settings';
import { GeneralSettings } from './general-settings';
import { LegalSettings } from './legal-settings';
import { PaymentSettings } from './payment-settings';
import { ReviewSettings } from './review-settings';
import { useAdminSettings } from './settings-api';

const TABS = ['general', 'contact', 'payment', 'legal'] as const;
type Tab = (typeof TABS)[number];

/** /admin/settings: general, contact, payment and legal tabs (the tab is kept in the address bar). */
export function AdminSettingsPage() {
  const { t } = useTranslation('admin');
  usePageTitle(t('common:titles.settings'));
  const settings = useAdminSettings();
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((x) => x === params.get('tab')) ?? 'general';
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({
    general: null,
    contact: null,
    payment: null,
    legal: null,
  });

  const select = (next: Tab, focus = false) => {
    setParams(next === 'general' ? {} : { tab: next }, { replace: true });
    if (focus) tabRefs.current[next]?.focus();
  };
  // arrow keys move between the tabs (the WAI-ARIA tabs pattern)
  const onKeyDown = (e: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      select(e.key === 'Home' ? 'general' : 'legal', true);
    } else if (step !== 0) {
      e.preventDefault();
      select(TABS[(i + step + TABS.length) % TABS.length] ?? 'general', true);
    }
  };

  let panel = null;
  if (settings.data) {
    const data = settings.data;
    panel =
      tab === 'general' ? (
        <GeneralSettings settings={data} />
      ) : tab === 'contact' ? (
        <ContactSettings settings={data} />
      ) : tab === 'legal' ? (
        <LegalSettings />
      ) : (
        <>
          <PaymentSettings settings={data} />
          <ReviewSettings settings={data} />
          <AccountSettings settings={data} />
        </>
      );
  }

  return (
    <section className="admin-page" aria-labelledby="settings-title">
      <header className="admin-page-head">
        <h1 id="settings-title">{t('settings.title')}</h1>
      </header>
      <div className="admin-tabs" role="tablist" aria-label={t('settings.title')} onKeyDown={onKeyDown}>
        {TABS.map((x) => (
          <button
            key={x}
            ref={(el) => {
              tabRefs.current[x] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${x}`}
            aria-selected={tab === x}
            aria-controls={`panel-${x}`}
            tabIndex={tab === x ? 0 : -1}
            onClick={() => select(x)}
          >
            {t(x === 'legal' ? 'legalSettings.tab' : `settings.tabs.${x}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="admin-tabpanel">
        {settings.isError && (
          <div className="notice notice-error admin-load-error" role="alert">
            <p>{t('settings.settingsLoadFailed')}</p>
            <button type="button" className="btn btn-outline btn-sm" onClick={() => settings.refetch()}>
              {t('common:actions.retry')}
            </button>
          </div>
        )}
        {/* the forms start from what the server says now, not from an older cached copy */}
        {settings.isFetchedAfterMount ? panel : !settings.isError && <Skeleton layout="page" />}
      </div>
    </section>
  );
}
