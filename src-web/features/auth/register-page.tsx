import { FIELD_MESSAGES, registerSchema } from '@contract/schemas';
import type { AuthReply } from '@contract/types';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { paths } from '../../app/paths';
import { Field } from '../../components/field';
import { ApiError, request } from '../../lib/api';
import { deviceId } from '../../lib/device';
import { errorText, fieldTexts } from '../../lib/errors';
import { currentLanguage } from '../../lib/i18n';
import { usePageTitle } from '../../lib/page-title';
import { useForm } from '../../lib/use-form';
import { PasswordInput } from './password-input';
import { useAuthSubmit } from './use-auth-submit';

// the terms box is the browser's business; the server checks the rest again
const registerForm = registerSchema.and(
  z.object({ terms: z.literal(true, { error: FIELD_MESSAGES.termsRequired }) }),
);

export function RegisterPage() {
  const { t } = useTranslation(['auth', 'common']);
  usePageTitle(t('common:titles.register'));
  const form = useForm(registerForm, {
    name: '',
    email: '',
    password: '',
    confirmPassword: '',
    terms: false as boolean,
  });
  const fields = fieldTexts(t, form.errors);
  const { error, busy, submit } = useAuthSubmit(
    form.validate,
    (input) =>
      request<AuthReply>('/auth/register', {
        method: 'POST',
        body: {
          name: input.name,
          email: input.email,
          password: input.password,
          device_id: deviceId(),
          oneSignalId: null,
          // the account's mails are written in the language it registered in
          language: currentLanguage(),
        },
      }),
    (err) => {
      if (err instanceof ApiError && Object.keys(err.errors).length) {
        form.setErrors(err.errors);
        return Object.values(fieldTexts(t, err.errors)).join(', ');
      }
      if (err instanceof ApiError && err.code === 'email_in_use') return t('register.emailInUse');
      return errorText(t, err, 'auth:register.failed');
    },
  );

  return (
    <section className="container narrow auth-page">
      <div className="card auth-card">
        <h1>{t('register.title')}</h1>
        <p className="muted">{t('register.subtitle')}</p>
        <div className="oauth-buttons">
          <button type="button" className="btn btn-outline" disabled title={t('register.soon')}>
            Google
          </button>
          <button type="button" className="btn btn-outline" disabled title={t('register.soon')}>
            GitHub
          </button>
        </div>
        <p className="divider">
          <span>{t('register.or')}</span>
        </p>
        {error && (
          <div className="notice notice-error" role="alert">
            {error}
          </div>
        )}
        <form onSubmit={submit} noValidate>
          <Field id="name" label={t('fields.name')} error={fields.name}>
            <input autoComplete="name" {...form.input('name')} />
          </Field>
          <Field id="email" label={t('fields.email')} error={fields.email}>
            <input type="email" autoComplete="email" {...form.input('email')} />
          </Field>
          <Field id="password" label={t('fields.password')} error={fields.password}>
            <PasswordInput autoComplete="new-password" {...form.input('password')} />
          </Field>
          <Field id="confirmPassword" label={t('fields.confirmPassword')} error={fields.confirmPassword}>
            <PasswordInput autoComplete="new-password" {...form.input('confirmPassword')} />
          </Field>
          <div className={`field${fields.terms ? ' has-error' : ''}`}>
            <label className="checkbox">
              <input
                id="terms"
                type="checkbox"
                aria-describedby="terms-links"
                checked={form.values.terms}
                onChange={(e) => form.set('terms', e.target.checked)}
              />
              {t('register.terms')}
            </label>
            {/* in a new tab, so what is typed in the form stays */}
            <p id="terms-links" className="register-legal-links">
              {(['terms', 'privacy', 'kvkk'] as const).map((document, i) => (
                <span key={document}>
                  {i > 0 && <span aria-hidden="true"> · </span>}
                  <a href={paths.legal(document)} target="_blank" rel="noopener">
                    {t(`common:legal.titles.${document}`)}
                  </a>
                </span>
              ))}
            </p>
            {fields.terms && (
              <p className="field-error" role="alert">
                {fields.terms}
              </p>
            )}
          </div>
          <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
            {busy ? t('common:status.wait') : t('register.submit')}
          </button>
        </form>
        <p className="auth-switch">
          {t('register.haveAccount')} <Link to={paths.login}>{t('register.loginLink')}</Link>
        </p>
      </div>
    </section>
  );
}
