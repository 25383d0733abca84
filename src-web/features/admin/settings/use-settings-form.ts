import type { SettingsUpdateInput } from '@contract/admin';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actionError } from '../../../components/admin/action-error';
import { ApiError } from '../../../lib/api';
import { useUpdateSettings } from './settings-api';
import { checkSettingsPatch, formFieldErrors, settingsMessageKey } from './settings-forms';
import { useFlash } from './use-flash';

/**
 * The state of one settings tab: its values, field errors (checked in the browser with the
 * server's schema, then by the server), the save call and its banners.
 */
export function useSettingsForm<V extends object>(
  initial: V,
  toPatch: (values: V) => SettingsUpdateInput,
  failureKey: string,
) {
  const { t } = useTranslation('admin');
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [success, showSuccess] = useFlash();
  const update = useUpdateSettings();

  const translate = (raw: Record<string, string>) => {
    const out: Record<string, string> = {};
    for (const [field, message] of Object.entries(raw)) {
      const key = settingsMessageKey(message);
      out[field] = key ? t(key) : message;
    }
    setErrors(out);
    const first = Object.keys(out)[0];
    if (first) document.getElementById(`settings-${first}`)?.focus();
  };

  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => {
      if (!(key in e)) return e;
      const { [key as string]: _gone, ...rest } = e;
      return rest;
    });
  };

  const save = () => {
    const patch = toPatch(values);
    const problems = checkSettingsPatch(patch);
    if (Object.keys(problems).length > 0) {
      translate(problems);
      return;
    }
    showSuccess(null);
    update.mutate(patch, {
      onSuccess: () => showSuccess(t('settings.saved')),
      onError: (err) => {
        if (err instanceof ApiError) translate(formFieldErrors(err.errors));
      },
    });
  };

  const error = update.isError ? actionError(t, update.error, failureKey) : null;
  return { values, set, errors, save, success, error, pending: update.isPending };
}
