import type { SettingsDto } from '@contract/types';
import { useTranslation } from 'react-i18next';
import { type AccountValues, accountPatch, accountValues } from './settings-forms';
import { SettingsSection } from './settings-section';
import { useSettingsForm } from './use-settings-form';

/**
 * The account rules that guard money: a verified address before a withdrawal, and a second
 * factor for every admin. Both start off, so turning them on is a deliberate choice here.
 */
export function AccountSettings({ settings }: { settings: SettingsDto }) {
  const { t } = useTranslation('admin');
  const form = useSettingsForm<AccountValues>(
    accountValues(settings),
    accountPatch,
    'admin:accountSettings.failed',
  );
  return (
    <SettingsSection
      id="accounts"
      title={t('accountSettings.title')}
      success={form.success}
      error={form.error}
      pending={form.pending}
      onSubmit={form.save}
    >
      {(['requireVerifiedEmail', 'requireAdminTwoFactor'] as const).map((key) => (
        <div key={key}>
          <label className="checkbox">
            <input
              id={`settings-${key}`}
              type="checkbox"
              checked={form.values[key]}
              aria-describedby={`settings-${key}-hint`}
              onChange={(e) => form.set(key, e.target.checked)}
            />
            <span>{t(`accountSettings.${key}`)}</span>
          </label>
          <p className="muted small field-hint" id={`settings-${key}-hint`}>
            {t(`accountSettings.${key}Hint`)}
          </p>
        </div>
      ))}
    </SettingsSection>
  );
}
