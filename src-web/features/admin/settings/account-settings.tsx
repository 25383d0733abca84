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
      <label className="checkbox">
        <input
          id="settings-requireVerifiedEmail"
          type="checkbox"
          checked={form.values.requireVerifiedEmail}
          aria-describedby="settings-requireVerifiedEmail-hint"
          onChange={(e) => form.set('requireVerifiedEmail', e.target.checked)}
        />
        <span>{t('accountSettings.requireVerifiedEmail')}</span>
      </label>
      <p className="muted small field-hint" id="settings-requireVerifiedEmail-hint">
        {t('accountSettings.requireVerifiedEmailHint')}
      </p>
      <label className="checkbox">
        <input
          id="settings-requireAdminTwoFactor"
          type="checkbox"
          checked={form.values.requireAdminTwoFactor}
          aria-describedby="settings-requireAdminTwoFactor-hint"
          onChange={(e) => form.set('requireAdminTwoFactor', e.target.checked)}
        />
        <span>{t('accountSettings.requireAdminTwoFactor')}</span>
      </label>
      <p className="muted small field-hint" id="settings-requireAdminTwoFactor-hint">
        {t('accountSettings.requireAdminTwoFactorHint')}
      </p>
    </SettingsSection>
  );
}
