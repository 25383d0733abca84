import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../lib/settings';

const DISMISSED_KEY = 'installBannerDismissed';

interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

function isPhone(): boolean {
  return window.matchMedia('(max-width: 768px)').matches && window.matchMedia('(pointer: coarse)').matches;
}

function isStandalone(): boolean {
  return window.matchMedia('(display-mode: standalone)').matches;
}

function wasDismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/** On phones: offers to install the app (the browser's prompt, or the iOS share-sheet hint). */
export function InstallBanner() {
  const { t } = useTranslation();
  const { site } = useSettings();
  const [prompt, setPrompt] = useState<InstallPromptEvent | null>(null);
  const [visible, setVisible] = useState(false);
  const ios = /iphone|ipad|ipod/i.test(navigator.userAgent);

  useEffect(() => {
    if (isStandalone() || wasDismissed() || !isPhone()) return;
    setVisible(true);
    const onPrompt = (e: Event) => {
      e.preventDefault();
      setPrompt(e as InstallPromptEvent);
    };
    window.addEventListener('beforeinstallprompt', onPrompt);
    return () => window.removeEventListener('beforeinstallprompt', onPrompt);
  }, []);

  // the page keeps room below its content for the banner while it shows
  useEffect(() => {
    document.body.classList.toggle('has-install-banner', visible);
    return () => document.body.classList.remove('has-install-banner');
  }, [visible]);

  if (!visible) return null;
  const dismiss = () => {
    setVisible(false);
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // nothing to remember it in
    }
  };
  return (
    <aside
      className="install-banner"
      data-testid="install-banner"
      aria-label={t('install.title', { name: site.name })}
    >
      <img src="/icon-192.png" alt="" width={40} height={40} />
      <div>
        <strong>{t('install.title', { name: site.name })}</strong>
        <p>{prompt ? t('install.message') : ios ? t('install.ios') : t('install.manual')}</p>
      </div>
      {prompt && (
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={async () => {
            await prompt.prompt();
            dismiss();
          }}
        >
          {t('install.install')}
        </button>
      )}
      <button type="button" className="icon-btn" onClick={dismiss} aria-label={t('actions.close')}>
        ×
      </button>
    </aside>
  );
}
