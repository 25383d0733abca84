import { isSafeLanguageCode, type LanguageDetectorModule } from 'i18next';

/**
 * The reader's language as i18next-browser-languagedetector found it with this app's options
 * (the language kept in local storage under `key`, then the browser's languages; a choice is kept
 * there), without the detectors the app never used (cookie, query string, path, session storage,
 * html tag...), which were 2 KB of gzipped JavaScript on the first page.
 */
export function languageDetector(key: string): LanguageDetectorModule {
  return {
    type: 'languageDetector',
    detect() {
      const found: string[] = [];
      try {
        const stored = window.localStorage.getItem(key);
        if (stored) found.push(stored);
      } catch {
        // no local storage (blocked or private mode): the browser's languages decide
      }
      if (typeof navigator !== 'undefined') {
        found.push(...(navigator.languages ?? []));
        if (navigator.language) found.push(navigator.language);
      }
      return found.filter((code) => isSafeLanguageCode(code));
    },
    cacheUserLanguage(lng) {
      if (lng === 'cimode') return;
      try {
        window.localStorage.setItem(key, lng);
      } catch {
        // not kept: the next visit detects it again
      }
    },
  };
}
