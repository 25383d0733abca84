import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** One settings tab's form: its banners, its fields and its save button. */
export function SettingsSection({
  id,
  title,
  success,
  error,
  pending,
  onSubmit,
  children,
}: {
  id: string;
  title: string;
  success: string | null;
  error: string | null;
  pending: boolean;
  onSubmit(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <form className="card settings-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {success && (
        <p className="notice notice-success" role="status" data-testid="settings-success">
          {success}
        </p>
      )}
      {error && (
        <p className="notice notice-error" role="alert" data-testid="settings-error">
          {error}
        </p>
      )}
      {children}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={pending} data-testid={`${id}-save`}>
          {pending ? t('settings.saving') : t('settings.save')}
        </button>
      </div>
    </form>
  );
}
