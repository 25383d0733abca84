import { resetPasswordSchema } from '@contract/account';
import type { AuthReply } from '@contract/types';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Field } from '../../components/field';
import { ApiError, request } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { errorText, fieldTexts } from '../../lib/errors';
import { usePageTitle } from '../../lib/page-title';
import { useForm } from '../../lib/use-form';
import { PasswordInput } from './password-input';

/** The token of a mailed link, taken once and removed from the address bar (and from history). */
function useLinkToken(): string {
  // read during render, removed only once the page is on screen: React may render a page and
  // throw that render away (a navigation interrupted by the session loading), and a token removed
  // by the discarded render would leave the kept one with none
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  useEffect(() => {
    if (new URLSearchParams(window.location.search).has('token')) {
      window.history.replaceState(window.history.state, '', window.location.pathname);
    }
  }, []);
  return token;
}

export { useLinkToken };

/** The page a reset mail's link opens: a new password, then signed in. */
export function ResetPasswordPage() {
  const { t } = useTranslation(['auth', 'common']);
  usePageTitle(t('common:titles.resetPassword'));
  const token = useLinkToken();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const form = useForm(resetPasswordSchema, { token, password: '', rememberMe: false as boolean });
  const [confirm, setConfirm] = useState('');
  const fields = fieldTexts(t, form.errors);
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(!token);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const input = form.validate();
    if (!input) return;
    if (input.password !== confirm) {
      setError(t('mail.mismatch'));
      return;
    }
    setBusy(true);
    try {
      const reply = await request<AuthReply | { token: null; twoFactorRequired: true }>(
        '/auth/reset-password',
        {
          method: 'POST',
          body: input,
        },
      );
      // an account with two-factor signs in with its code: the new password is set, the session is not
      if (reply.token === null) navigate(paths.login, { replace: true });
      else {
        signIn(reply.token, (reply as AuthReply).data);
        navigate(paths.tasks, { replace: true });
      }
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_token') setInvalid(true);
      else setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="container narrow auth-page">
      <div className="card auth-card">
        <h1>{t('mail.resetTitle')}</h1>
        {invalid ? (
          <>
            <div className="notice notice-error" role="alert">
              {t('mail.invalidLink')}
            </div>
            <Link className="btn btn-primary btn-block" to={paths.forgotPassword}>
              {t('mail.askAgain')}
            </Link>
          </>
        ) : (
          <>
            <p className="muted">{t('mail.resetIntro')}</p>
            {error && (
              <div className="notice notice-error" role="alert">
                {error}
              </div>
            )}
            <form onSubmit={submit} noValidate>
              <Field id="password" label={t('mail.newPassword')} error={fields.password}>
                <PasswordInput autoComplete="new-password" {...form.input('password')} />
              </Field>
              <Field id="confirm" label={t('mail.confirmPassword')}>
                <PasswordInput
                  autoComplete="new-password"
                  id="confirm"
                  value={confirm}
                  onChange={(e) => setConfirm(e.target.value)}
                />
              </Field>
              <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
                {busy ? t('common:status.wait') : t('mail.resetSubmit')}
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
