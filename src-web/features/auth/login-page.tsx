import { loginSchema } from '@contract/schemas';
import type { AuthReply } from '@contract/types';
import { useState } from 'react';
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
  // the second step of an account with two-factor: asked for after the right password
  const [codeStep, setCodeStep] = useState(false);
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const { error, busy, submit } = useAuthSubmit(
    form.validate,
    (input) =>
      request<AuthReply>('/auth/login', {
        method: 'POST',
        body: {
          ...input,
          device_id: deviceId(),
          oneSignalId: null,
          ...(codeStep ? (recovery ? { recoveryCode: code } : { code }) : {}),
        },
      }),
    (err) => {
      if (err instanceof ApiError && err.code === 'two_factor_required') {
        setCodeStep(true);
        return null;
      }
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
        {codeStep ? (
          <form onSubmit={submit} noValidate aria-labelledby="two-factor-title">
            <h2 id="two-factor-title">{t('twoFactorLogin.title')}</h2>
            <p className="muted">{t('twoFactorLogin.intro')}</p>
            <Field id="code" label={t(recovery ? 'twoFactorLogin.recoveryCode' : 'twoFactorLogin.code')}>
              <input
                id="code"
                name="code"
                autoComplete="one-time-code"
                inputMode={recovery ? 'text' : 'numeric'}
                maxLength={recovery ? 40 : 7}
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </Field>
            <button className="btn btn-primary btn-block" type="submit" disabled={busy || code.trim() === ''}>
              {busy ? t('common:status.wait') : t('twoFactorLogin.submit')}
            </button>
            <div className="row-between">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  setRecovery(!recovery);
                  setCode('');
                }}
              >
                {t(recovery ? 'twoFactorLogin.useCode' : 'twoFactorLogin.useRecovery')}
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => {
                  setCodeStep(false);
                  setCode('');
                }}
              >
                {t('twoFactorLogin.back')}
              </button>
            </div>
          </form>
        ) : (
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
        )}
        <p className="auth-switch">
          {t('login.noAccount')} <Link to={paths.register}>{t('login.registerLink')}</Link>
        </p>
      </div>
    </section>
  );
}
