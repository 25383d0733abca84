import { registerSchema } from '@contract/schemas';
import type { AuthReply } from '@contract/types';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Field } from '../../components/field';
import { PageLoader } from '../../components/page-loader';
import { ApiError, request } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { errorText, fieldTexts } from '../../lib/errors';
import { useForm } from '../../lib/use-form';
import { PasswordInput } from './password-input';

/** The header the setup routes read the link's token from (src-server/features/setup). */
const TOKEN_HEADER = 'X-Setup-Token';

type LinkState = 'checking' | 'open' | 'invalid' | 'done' | 'error';

/** What a refusal of the link means for the page: not valid, or setup already done. */
function refusal(err: unknown): LinkState | null {
  if (err instanceof ApiError && err.code === 'setup_token_invalid') return 'invalid';
  if (err instanceof ApiError && err.code === 'setup_done') return 'done';
  return null;
}

/**
 * /setup?token=…: the first-run page `serve` links to in its log while the site has no admin.
 * It checks the link, then creates the first admin with the register form's rules and signs
 * them in. Without a valid token (or once an admin exists) it only says so.
 */
export function SetupPage() {
  const { t } = useTranslation(['auth', 'common']);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const [state, setState] = useState<LinkState>('checking');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm(registerSchema, { name: '', email: '', password: '', confirmPassword: '' });
  const fields = fieldTexts(t, form.errors);

  useEffect(() => {
    if (!token) {
      setState('invalid');
      return;
    }
    const abort = new AbortController();
    request('/setup', { headers: { [TOKEN_HEADER]: token }, signal: abort.signal }).then(
      () => setState('open'),
      (err: unknown) => {
        if (abort.signal.aborted) return;
        setError(errorText(t, err));
        setState(refusal(err) ?? 'error');
      },
    );
    return () => abort.abort();
  }, [token, t]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const input = form.validate();
    if (!input) return;
    setBusy(true);
    try {
      const reply = await request<AuthReply>('/setup', {
        method: 'POST',
        headers: { [TOKEN_HEADER]: token },
        body: {
          name: input.name,
          email: input.email,
          password: input.password,
          confirmPassword: input.confirmPassword,
        },
      });
      signIn(reply.token, reply.data);
      navigate(paths.admin, { replace: true });
    } catch (err) {
      const refused = refusal(err);
      if (refused) setState(refused);
      else if (err instanceof ApiError && Object.keys(err.errors).length) {
        form.setErrors(err.errors);
        setError(Object.values(fieldTexts(t, err.errors)).join(', '));
      } else if (err instanceof ApiError && err.code === 'email_in_use') setError(t('register.emailInUse'));
      else setError(errorText(t, err, 'auth:setup.failed'));
    } finally {
      setBusy(false);
    }
  };

  if (state === 'checking') return <PageLoader />;
  return (
    <section className="container narrow auth-page">
      <div className="card auth-card" data-testid={`setup-${state}`}>
        {state === 'invalid' || state === 'done' ? (
          <>
            <h1>{t(state === 'done' ? 'setup.doneTitle' : 'setup.invalidTitle')}</h1>
            <p className="muted">{t(state === 'done' ? 'setup.doneText' : 'setup.invalidText')}</p>
            <p className="auth-switch">
              <Link to={paths.login}>{t('setup.loginLink')}</Link>
            </p>
          </>
        ) : (
          <>
            <h1>{t('setup.title')}</h1>
            <p className="muted">{t('setup.subtitle')}</p>
            {error && (
              <div className="notice notice-error" role="alert">
                {error}
              </div>
            )}
            {state === 'open' && (
              <form onSubmit={submit} noValidate>
                <Field id="name" label={t('fields.name')} error={fields.name}>
                  <input autoComplete="name" {...form.input('name')} />
                </Field>
                <Field id="email" label={t('fields.email')} error={fields.email}>
                  <input type="email" autoComplete="email" {...form.input('email')} />
                </Field>
                <Field id="password" label={t('fields.password')} error={fields.password}>
                  <PasswordInput
                    autoComplete="new-password"
                    {...form.input('password')}
                    aria-describedby={fields.password ? 'password-hint password-error' : 'password-hint'}
                  />
                  <p className="muted field-hint" id="password-hint">
                    {t('setup.passwordHint')}
                  </p>
                </Field>
                <Field
                  id="confirmPassword"
                  label={t('fields.confirmPassword')}
                  error={fields.confirmPassword}
                >
                  <PasswordInput autoComplete="new-password" {...form.input('confirmPassword')} />
                </Field>
                <button className="btn btn-primary btn-block" type="submit" disabled={busy}>
                  {busy ? t('common:status.wait') : t('setup.submit')}
                </button>
              </form>
            )}
          </>
        )}
      </div>
    </section>
  );
}
