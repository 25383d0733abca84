import type { SettingsDto } from '@contract/types';
import { useTranslation } from 'react-i18next';
import { type ContactValues, contactPatch, contactValues, SOCIAL_LINKS } from './settings-forms';
import { SettingsInput } from './settings-input';
import { SettingsSection } from './settings-section';
import { useSettingsForm } from './use-settings-form';

/** Contact email, phone and address, and the four social links. */
export function ContactSettings({ settings }: { settings: SettingsDto }) {
  const { t } = useTranslation('admin');
  const form = useSettingsForm<ContactValues>(
    contactValues(settings),
    contactPatch,
    'admin:settings.contactSettingsUpdateFailed',
  );
  return (
    <SettingsSection
      id="contact"
      title={t('settings.tabs.contact')}
      success={form.success}
      error={form.error}
      pending={form.pending}
      onSubmit={form.save}
    >
      <div className="settings-grid">
        <SettingsInput
          name="email"
          type="email"
          autoComplete="off"
          label={t('settings.contact.email')}
          value={form.values.email}
          error={form.errors.email}
          onValue={(v) => form.set('email', v)}
        />
        <SettingsInput
          name="phone"
          type="tel"
          label={t('settings.contact.phone')}
          value={form.values.phone}
          error={form.errors.phone}
          onValue={(v) => form.set('phone', v)}
        />
      </div>
      <SettingsInput
        name="address"
        label={t('settings.contact.address')}
        value={form.values.address}
        error={form.errors.address}
        multiline
        onValue={(v) => form.set('address', v)}
      />
      <fieldset className="settings-fieldset">
        <legend>{t('settings.contact.social')}</legend>
        <div className="settings-grid">
          {SOCIAL_LINKS.map((name) => (
            <SettingsInput
              key={name}
              name={name}
              type="url"
              inputMode="url"
              placeholder="https://"
              label={t(`common:footer.social.${name}`)}
              value={form.values[name]}
              error={form.errors[name]}
              onValue={(v) => form.set(name, v)}
            />
          ))}
        </div>
      </fieldset>
    </SettingsSection>
  );
}
