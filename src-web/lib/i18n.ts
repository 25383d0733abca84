import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageDetector } from './language-detector';

export const LANGUAGE_KEY = 'language';
export const LANGUAGES = ['tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * Turkish and English; the language from local storage, else the browser's, else Turkish.
 * Resolves once the shell's texts in that language are loaded: each language's are a chunk of
 * their own (locales/core-tr.ts, core-en.ts), so the first page never carries the other one.
 */
export async function setupI18n() {
  i18n
    .use(languageDetector(LANGUAGE_KEY))
    .use(initReactI18next)
    .init({
      resources: {},
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: 'tr',
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  const syncHtmlLang = (lng: string) => {
    document.documentElement.lang = toLanguage(lng);
  };
  syncHtmlLang(i18n.language ?? 'tr');
  i18n.on('languageChanged', syncHtmlLang);
  await loadCoreLocales(toLanguage(i18n.language));
  // again, now that the texts are there: sets resolvedLanguage as the init with them did
  await i18n.changeLanguage(i18n.language);
  return i18n;
}

/** Switches the language once its shell texts are loaded (the screen never shows bare keys). */
export async function setLanguage(lng: Language): Promise<void> {
  await loadCoreLocales(lng);
  await i18n.changeLanguage(lng);
}

function toLanguage(lng: string | undefined): Language {
  return lng?.startsWith('en') ? 'en' : 'tr';
}

type Bundles = Record<string, Record<string, object>>;

function addBundles(bundles: Bundles) {
  for (const [lng, namespaces] of Object.entries(bundles)) {
    for (const [ns, texts] of Object.entries(namespaces)) {
      if (!i18n.hasResourceBundle(lng, ns)) i18n.addResourceBundle(lng, ns, texts);
    }
  }
}

const coreLoaders: Record<Language, () => Promise<Record<string, object>>> = {
  tr: () => import('../locales/core-tr').then((m) => m.coreTr),
  en: () => import('../locales/core-en').then((m) => m.coreEn),
};

/** The shell's namespaces (common, auth, landing, errors) in one language. Idempotent. */
async function loadCoreLocales(lng: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lng, 'common')) addBundles({ [lng]: await coreLoaders[lng]() });
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
