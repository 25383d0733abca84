import type { TwoFactorSetupDto } from '@contract/sessions';
import { useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, request } from '../../lib/api';
import { errorText, fieldTexts } from '../../lib/errors';
import { Field } from '../field';
import { useToast } from '../toast';
import { twoFactorKey, useTwoFactorStatus } from './two-factor-status';

/** The QR code of the otpauth URL, drawn in the browser as an SVG (the secret never leaves the page). */
function QrCode({ url, alt }: { url: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) => {
      if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [url]);
  return src ? <img className="qr-code" src={src} alt={alt} width={200} height={200} /> : null;
}

/**
 * Two-factor sign-in of the signed-in account: set up (password, then a QR code and a code to
 * confirm it), the recovery codes shown once, and turning it off (password and a code).
 */
export function TwoFactorPanel({ onEnabled }: { onEnabled?: () => void }) {
  const { t } = useTranslation(['security', 'common']);
  const toast = useToast();
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [setup, setSetup] = useState<TwoFactorSetupDto | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = fieldTexts(t, errors);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setErrors({});
    try {
      await work();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.errors).length > 0) setErrors(err.errors);
      else setError(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    run(async () => {
      const reply = await request<{ data: TwoFactorSetupDto }>('/users/me/two-factor/setup', {
        method: 'POST',
        body: { currentPassword: password },
      });
      setSetup(reply.data);
      setPassword('');
    });
  const enable = () =>
    run(async () => {
      const reply = await request<{ data: { recoveryCodes: string[] } }>('/users/me/two-factor/enable', {
        method: 'POST',
        body: { code },
      });
      setRecoveryCodes(reply.data.recoveryCodes);
      setSetup(null);
      setCode('');
      toast.success(t('twoFactor.enabled'));
    });
  const disable = () =>
    run(async () => {
      const typed = code.trim();
      await request('/users/me/two-factor/disable', {
        method: 'POST',
        body: {
          currentPassword: password,
          ...(/^\d[\d\s]*$/.test(typed) ? { code: typed } : { recoveryCode: typed }),
        },
      });
      setPassword('');
      setCode('');
      toast.success(t('twoFactor.disabled'));
      await queryClient.invalidateQueries({ queryKey: twoFactorKey });
    });
  const kept = async () => {
    setRecoveryCodes(null);
    await queryClient.invalidateQueries({ queryKey: twoFactorKey });
    onEnabled?.();
  };

  const enabled = status.data?.enabled === true;
  return (
    <section className="card security-card" aria-labelledby="two-factor-title" data-testid="two-factor-panel">
      <h2 id="two-factor-title">{t('twoFactor.title')}</h2>
      {status.data && !recoveryCodes && (
        <p className="muted">{t(enabled ? 'twoFactor.on' : 'twoFactor.off')}</p>
      )}
      {error && (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      )}
      {recoveryCodes ? (
        <div data-testid="recovery-codes">
          <h3>{t('twoFactor.recoveryTitle')}</h3>
          <p>{t('twoFactor.recoveryIntro')}</p>
          <ul className="recovery-codes">
            {recoveryCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <button type="button" className="btn btn-primary" onClick={() => void kept()}>
            {t('twoFactor.recoveryDone')}
          </button>
        </div>
      ) : setup ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void enable();
          }}
        >
          <p>{t('twoFactor.scan')}</p>
          <QrCode url={setup.otpauthUrl} alt={t('twoFactor.qrAlt')} />
          <p>
            {t('twoFactor.key')}: <code data-testid="two-factor-secret">{setup.secret}</code>
          </p>
          <Field id="two-factor-code" label={t('twoFactor.code')} error={fields.code}>
            <input
              id="two-factor-code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={7}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </Field>
          <div className="row-gap">
            <button type="submit" className="btn btn-primary" disabled={busy || code.trim() === ''}>
              {t('twoFactor.enable')}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setSetup(null)}>
              {t('twoFactor.cancel')}
            </button>
          </div>
        </form>
      ) : status.data ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void (enabled ? disable() : start());
          }}
        >
          {enabled && <h3>{t('twoFactor.disableTitle')}</h3>}
          <Field
            id="two-factor-password"
            label={t('twoFactor.currentPassword')}
            error={fields.currentPassword}
          >
            <input
              id="two-factor-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          {enabled && (
            <Field id="two-factor-off-code" label={t('twoFactor.disableCode')} error={fields.code}>
              <input
                id="two-factor-off-code"
                autoComplete="one-time-code"
                maxLength={40}
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </Field>
          )}
          <button
            type="submit"
            className={enabled ? 'btn btn-outline' : 'btn btn-primary'}
            disabled={busy || password === '' || (enabled && code.trim() === '')}
          >
            {t(enabled ? 'twoFactor.disable' : 'twoFactor.start')}
          </button>
        </form>
      ) : null}
    </section>
  );
}
