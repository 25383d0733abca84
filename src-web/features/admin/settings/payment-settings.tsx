import { PAYMENT_METHODS, type PaymentMethod } from '@contract/constants';
import type { SettingsDto } from '@contract/types';
import { useTranslation } from 'react-i18next';
import { type PaymentValues, paymentPatch, paymentValues } from './settings-forms';
import { SettingsInput } from './settings-input';
import { SettingsSection } from './settings-section';
import { useSettingsForm } from './use-settings-form';

/** The minimum payout (step 5, at least 0, sent as a number) and the payout methods offered. */
export function PaymentSettings({ settings }: { settings: SettingsDto }) {
  const { t } = useTranslation('admin');
  const form = useSettingsForm<PaymentValues>(
    paymentValues(settings),
    paymentPatch,
    'admin:settings.paymentSettingsUpdateFailed',
  );
  const toggle = (method: PaymentMethod, on: boolean) =>
    form.set(
      'methods',
      PAYMENT_METHODS.filter((m) => (m === method ? on : form.values.methods.includes(m))),
    );
  return (
    <SettingsSection
      id="payment"
      title={t('settings.tabs.payment')}
      success={form.success}
      error={form.error}
      pending={form.pending}
      onSubmit={form.save}
    >
      <SettingsInput
        name="minimumPayout"
        type="number"
        inputMode="decimal"
        min={0}
        step={5}
        label={t('settings.payment.minimumPayout')}
        value={form.values.minimumPayout}
        error={form.errors.minimumPayout}
        onValue={(v) => form.set('minimumPayout', v)}
      />
      <fieldset
        className={`settings-fieldset${form.errors.methods ? ' has-error' : ''}`}
        aria-describedby={form.errors.methods ? 'settings-methods-error' : undefined}
      >
        <legend>{t('settings.payment.methods')}</legend>
        {PAYMENT_METHODS.map((method, i) => (
          <label key={method} className="checkbox">
            <input
              id={i === 0 ? 'settings-methods' : undefined}
              type="checkbox"
              checked={form.values.methods.includes(method)}
              onChange={(e) => toggle(method, e.target.checked)}
            />
            <span>{t(`methods.${method}`)}</span>
          </label>
        ))}
        {form.errors.methods && (
          <p className="field-error" id="settings-methods-error" role="alert">
            {form.errors.methods}
          </p>
        )}
      </fieldset>
    </SettingsSection>
  );
}
