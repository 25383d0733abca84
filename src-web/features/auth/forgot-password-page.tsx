import { forgotPasswordSchema } from '@contract/account';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Field } from '../../components/field';
import { request } from '../../lib/api';
import { errorText, fieldTexts } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useSettings } from '../../lib/settings';
import { useForm } from '../../lib/use-form';
import { useMailConfigured } from './mail-status';

/**
 * A reset link by mail when the site can send mail; otherwise support sets a new password from
 * the admin panel, and the page says how to reach them.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation(['auth', 'common']);
  usePageTitle(t('common:titles.forgotPassword'));
  const { contact } = useSettings();
  const configured = useMailConfigured();
  const form = useForm(forgotPasswordSchema, { email: '' });
  const fields = fieldTexts(t, form.errors);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const input = form.validate();
    if (!input) return;
    setBusy(true);
    try {
      await request('/auth/forgot-password', { method: 'POST', body: input });
      setSent(true);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="container narrow auth-page">
      <div className="card auth-card">
        <h1>{t('forgot.title')}</h1>
        {configured === false && (
          <>
            <p className="notice notice-info">{t('mail.notSetUp')}</p>
            <p>{t('forgot.intro')}</p>
            <ol className="steps-list">
              <li>{t('forgot.step1')}</li>
              <li>{t('forgot.step2')}</li>
              <li>{t('forgot.step3')}</li>
            </ol>
            <a
              className="btn btn-primary btn-block"
              href={`mailto:${contact.email}?subject=${encodeURIComponent(t('forgot.subject'))}`}
            >
              {t('forgot.contact', { email: contact.email })}
            </a>
          </>
        )}
        {configured && sent && (
          <p className="notice notice-success" role="status">
            {t('mail.sent')}
          </p>
        )}
        {configured && !sent && (
          <>
            <p>{t('mail.forgotIntro')}</p>
            {error && (
              <div className="notice notice-error" role="alert">
                {error}
              </div>
            )}
            <form onSubmit={submit} noValidate>
              <Field id="email" label={t('fields.email')} error={fields.email}>
                <input type="email" autoComplete="email" {...form.input('email')} />
              </Field>
              <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
                {busy ? t('common:status.wait') : t('mail.send')}
              </button>
            </form>
          </>
        )}
        <p className="auth-switch">
          <Link to={paths.login}>{t('forgot.back')}</Link>
        </p>
      </div>
    </section>
  );
}
