import { MAX_AUTO_APPROVE_DAYS } from '@contract/admin';
import type { SettingsDto } from '@contract/types';
import { useTranslation } from 'react-i18next';
import { type ReviewValues, reviewPatch, reviewValues } from './settings-forms';
import { SettingsInput } from './settings-input';
import { SettingsSection } from './settings-section';
import { useSettingsForm } from './use-settings-form';

/** Auto-approval: after how many days a proof still pending is approved by the system; 0 is off. */
export function ReviewSettings({ settings }: { settings: SettingsDto }) {
  const { t } = useTranslation('admin');
  const form = useSettingsForm<ReviewValues>(
    reviewValues(settings),
    reviewPatch,
    'admin:settings.reviewSettingsUpdateFailed',
  );
  return (
    <SettingsSection
      id="review"
      title={t('settings.review.title')}
      success={form.success}
      error={form.error}
      pending={form.pending}
      onSubmit={form.save}
    >
      <SettingsInput
        name="autoApproveDays"
        type="number"
        inputMode="numeric"
        min={0}
        max={MAX_AUTO_APPROVE_DAYS}
        step={1}
        label={t('settings.review.autoApproveDays')}
        hint={t('settings.review.autoApproveHint')}
        value={form.values.autoApproveDays}
        error={form.errors.autoApproveDays}
        onValue={(v) => form.set('autoApproveDays', v)}
      />
    </SettingsSection>
  );
}
