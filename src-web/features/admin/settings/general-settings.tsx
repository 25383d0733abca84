import type { SettingsDto } from '@contract/types';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from './image-upload';
import { type GeneralValues, generalPatch, generalValues } from './settings-forms';
import { SettingsInput } from './settings-input';
import { SettingsSection } from './settings-section';
import { useSettingsForm } from './use-settings-form';

/** Site name, the description in both languages, the logo and the favicon. */
export function GeneralSettings({ settings }: { settings: SettingsDto }) {
  const { t } = useTranslation('admin');
  const form = useSettingsForm<GeneralValues>(
    generalValues(settings),
    generalPatch,
    'admin:settings.settingsUpdateFailed',
  );
  return (
    <>
      <SettingsSection
        id="general"
        title={t('settings.tabs.general')}
        success={form.success}
        error={form.error}
        pending={form.pending}
        onSubmit={form.save}
      >
        <SettingsInput
          name="name"
          label={t('settings.general.siteName')}
          value={form.values.name}
          error={form.errors.name}
          maxLength={100}
          onValue={(v) => form.set('name', v)}
        />
        <SettingsInput
          name="descriptionTr"
          label={t('settings.general.descriptionTr')}
          value={form.values.descriptionTr}
          error={form.errors.descriptionTr}
          multiline
          onValue={(v) => form.set('descriptionTr', v)}
        />
        <SettingsInput
          name="descriptionEn"
          label={t('settings.general.descriptionEn')}
          value={form.values.descriptionEn}
          error={form.errors.descriptionEn}
          multiline
          onValue={(v) => form.set('descriptionEn', v)}
        />
      </SettingsSection>
      <section className="card settings-form" aria-labelledby="images-title">
        <h2 id="images-title">{t('settings.general.images')}</h2>
        <div className="image-uploads">
          <ImageUpload field="logo" current={settings.site.logo} />
          <ImageUpload field="favicon" current={settings.site.favicon} />
        </div>
      </section>
    </>
  );
}
