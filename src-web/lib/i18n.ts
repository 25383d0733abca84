import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { coreResources } from '../locales/core';

export const LANGUAGE_KEY = 'language';
export const LANGUAGES = ['tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Turkish and English; the language from local storage, else the browser's, else Turkish. */
export function setupI18n() {
  i18n
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: coreResources,
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: 'tr',
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: LANGUAGE_KEY,
        caches: ['localStorage'],
      },
      returnNull: false,
    });
  const syncHtmlLang = (lng: string) => {
    document.documentElement.lang = lng.startsWith('en') ? 'en' : 'tr';
  };
  syncHtmlLang(i18n.resolvedLanguage ?? 'tr');
  i18n.on('languageChanged', syncHtmlLang);
  return i18n;
}

type Bundles = Record<string, Record<string, object>>;

function addBundles(bundles: Bundles) {
  for (const [lng, namespaces] of Object.entries(bundles)) {
    for (const [ns, texts] of Object.entries(namespaces)) {
      if (!i18n.hasResourceBundle(lng, ns)) i18n.addResourceBundle(lng, ns, texts);
    }
  }
}

/**
 * The namespaces of the task, profile and submission pages, kept out of the first page's
 * JavaScript: the routes load them with the page (app/route-modules.tsx). Idempotent.
 */
export async function loadPageLocales(): Promise<void> {
  addBundles((await import('../locales/pages')).pageResources);
}

/** The admin screens' namespaces, loaded with the admin layout. Idempotent. */
export async function loadAdminLocales(): Promise<void> {
  addBundles((await import('../locales/admin')).adminResources);
}

export function currentLanguage(): Language {
  return i18n.resolvedLanguage === 'en' ? 'en' : 'tr';
}
