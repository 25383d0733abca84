import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { languageDetector } from './language-detector';

function fakeStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

/** An i18next instance set up as lib/i18n.ts does, in a browser with this storage and languages. */
async function detected(storage: unknown, languages: string[]) {
  vi.stubGlobal('window', { localStorage: storage });
  vi.stubGlobal('navigator', { languages, language: languages[0] });
  const i18n = i18next.createInstance().use(languageDetector('language'));
  await i18n.init({
    resources: { en: { common: { x: 'x' } }, tr: { common: { x: 'x' } } },
    supportedLngs: ['tr', 'en'],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: 'tr',
    defaultNS: 'common',
  });
  return i18n.resolvedLanguage;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the language detector', () => {
  it('takes the language kept in local storage first', async () => {
    expect(await detected(fakeStorage({ language: 'en' }), ['tr-TR'])).toBe('en');
    expect(await detected(fakeStorage({ language: 'tr' }), ['en-US'])).toBe('tr');
  });

  it("else the browser's languages, else Turkish", async () => {
    expect(await detected(fakeStorage(), ['en-US', 'en'])).toBe('en');
    expect(await detected(fakeStorage(), ['de-DE', 'en'])).toBe('en');
    expect(await detected(fakeStorage(), ['de-DE', 'fr'])).toBe('tr');
  });

  it('skips a kept value that is not a language code, and works without local storage', async () => {
    expect(await detected(fakeStorage({ language: '" onmouseover="x()' }), ['en-US'])).toBe('en');
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(await detected(blocked, ['en-GB'])).toBe('en');
  });

  it('keeps the chosen language in local storage', async () => {
    const storage = fakeStorage();
    vi.stubGlobal('window', { localStorage: storage });
    const detector = languageDetector('language');
    detector.cacheUserLanguage?.('en');
    detector.cacheUserLanguage?.('cimode');
    expect(storage.data.get('language')).toBe('en');
  });
});
