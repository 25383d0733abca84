import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { resources } from '../locales';

export const LANGUAGE_KEY = 'language';
export const LANGUAGES = ['tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Turkish and English; the language from local storage, else the browser's, else Turkish. */
export function setupI18n() {
  i18n
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources,
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

export function currentLanguage(): Language {
  return i18n.resolvedLanguage === 'en' ? 'en' : 'tr';
}
