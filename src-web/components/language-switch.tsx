import { useTranslation } from 'react-i18next';
import { setLanguage } from '../lib/i18n';

/**
 * The TR/EN switch; the choice is kept in local storage by the language detector. The switch
 * happens once that language's texts are loaded (offline without them, the language stays).
 */
export function LanguageSwitch() {
  const { i18n, t } = useTranslation();
  const current = i18n.resolvedLanguage === 'en' ? 'en' : 'tr';
  return (
    <fieldset className="lang-switch">
      <legend className="sr-only">{t('nav.language')}</legend>
      {(['tr', 'en'] as const).map((lng) => (
        <button
          key={lng}
          type="button"
          className={current === lng ? 'active' : ''}
          aria-pressed={current === lng}
          onClick={() => void setLanguage(lng).catch(() => undefined)}
        >
          {lng.toUpperCase()}
        </button>
      ))}
    </fieldset>
  );
}
