import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageDetector } from './language-detector';

export const LANGUAGE_KEY = 'language';
export const LANGUAGES = ['tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

// the router starts loading the first page's route at once, before the texts are set up: what a
// route loads in the reader's language waits for that language to be known
let started: () => void = () => undefined;
const setUp = new Promise<void>((resolve) => {
  started = resolve;
});

/**
 * Turkish and English; the language from local storage, else the browser's, else Turkish.
 * Resolves once the shell's texts in that language are loaded: each language's are a chunk of
 * their own (locales/core-tr.ts, core-en.ts), so the first page never carries the other one.
 */
export async function setupI18n() {
  try {
    return await initI18n();
  } finally {
    started();
  }
}

async function initI18n() {
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
  await Promise.all([loadCoreLocales(lng), formsWanted ? loadForms(lng) : undefined]);
  // a page that asked for the forms' texts meanwhile gets them in the new language too
  if (formsWanted) await loadForms(lng);
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

/** The first page's namespaces (common, landing) in one language. Idempotent. */
async function loadCoreLocales(lng: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lng, 'common')) addBundles({ [lng]: await coreLoaders[lng]() });
}

const formLoaders: Record<Language, () => Promise<Record<string, object>>> = {
  tr: () => import('../locales/forms-tr').then((m) => m.formsTr),
  en: () => import('../locales/forms-en').then((m) => m.formsEn),
};

// once a page has asked for the forms' texts, a language switch loads them in the new language
// before it switches, as it does the first page's
let formsWanted = false;

async function loadForms(lng: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lng, 'errors')) addBundles({ [lng]: await formLoaders[lng]() });
}

/**
 * The sign-in forms' and the error texts (auth, errors) in the reader's language. The landing
 * page shows neither, so they stay out of its JavaScript; every other page loads them with its
 * code (app/route-modules.tsx, and the page and admin texts below). Idempotent.
 */
export async function loadFormLocales(): Promise<void> {
  formsWanted = true;
  await setUp;
  await loadForms(currentLanguage());
}

/**
 * The namespaces of the task, profile and submission pages, kept out of the first page's
 * JavaScript: the routes load them with the page (app/route-modules.tsx). Idempotent.
 */
export async function loadPageLocales(): Promise<void> {
  const [{ pageResources }] = await Promise.all([import('../locales/pages'), loadFormLocales()]);
  addBundles(pageResources);
}

/** The admin screens' namespaces, loaded with the admin layout. Idempotent. */
export async function loadAdminLocales(): Promise<void> {
  const [{ adminResources }] = await Promise.all([import('../locales/admin'), loadFormLocales()]);
  addBundles(adminResources);
}

export function currentLanguage(): Language {
  return i18n.resolvedLanguage === 'en' ? 'en' : 'tr';
}
