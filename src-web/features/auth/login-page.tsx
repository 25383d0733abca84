import { loginSchema } from '@contract/schemas';
import type { AuthReply } from '@contract/types';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Field } from '../../components/field';
import { ApiError, request } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { deviceId } from '../../lib/device';
import { errorText, fieldTexts } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useForm } from '../../lib/use-form';
import { PasswordInput } from './password-input';
import { useAuthSubmit } from './use-auth-submit';

export function LoginPage() {
  const { t } = useTranslation(['auth', 'common']);
  usePageTitle(t('common:titles.login'));
  const { showBan } = useAuth();
  const form = useForm(loginSchema, { email: '', password: '', rememberMe: false as boolean });
  const fields = fieldTexts(t, form.errors);
  const { error, busy, submit } = useAuthSubmit(
    form.validate,
    (input) =>
      request<AuthReply>('/auth/login', {
        method: 'POST',
        body: { ...input, device_id: deviceId(), oneSignalId: null },
      }),
    (err) => {
      if (err instanceof ApiError && err.code === 'banned') {
        showBan(typeof err.details.banReason === 'string' ? err.details.banReason : null);
        return null;
      }
      if (err instanceof ApiError && err.code === 'network_error') return t('login.network');
      return errorText(t, err, 'auth:login.failed');
    },
  );

  return (
    <section className="container narrow auth-page">
      <div className="card auth-card">
        <h1>{t('login.title')}</h1>
        <p className="muted">{t('login.subtitle')}</p>
        {error && (
          <div className="notice notice-error" role="alert">
            {error}
          </div>
        )}
        <form onSubmit={submit} noValidate>
          <Field id="email" label={t('fields.email')} error={fields.email}>
            <input type="email" autoComplete="email" {...form.input('email')} />
          </Field>
          <Field id="password" label={t('fields.password')} error={fields.password}>
            <PasswordInput autoComplete="current-password" {...form.input('password')} />
          </Field>
          <div className="row-between">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={form.values.rememberMe}
                onChange={(e) => form.set('rememberMe', e.target.checked)}
              />
              {t('login.remember')}
            </label>
            <Link to={paths.forgotPassword}>{t('login.forgot')}</Link>
          </div>
          <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
            {busy ? t('common:status.wait') : t('login.submit')}
          </button>
        </form>
        <p className="auth-switch">
          {t('login.noAccount')} <Link to={paths.register}>{t('login.registerLink')}</Link>
        </p>
      </div>
    </section>
  );
}
