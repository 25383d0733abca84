import type { UserDto } from '@contract/types';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../components/toast';
import { request } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { errorText } from '../../lib/errors';
import { useSettings } from '../../lib/settings';
import { useMailConfigured } from '../auth/mail-status';

/**
 * The account's email: whether its address is verified (with a new link on request), the
 * language its mails are written in and whether it gets mails about reviews and payouts.
 * Without SMTP on the server nothing can be sent, so the card says so and names support.
 */
export function MailPreferences({ user }: { user: UserDto }) {
  const { t } = useTranslation(['profile', 'common']);
  const { setUser } = useAuth();
  const toast = useToast();
  const { contact } = useSettings();
  const configured = useMailConfigured();
  const [busy, setBusy] = useState(false);
  const [linkSent, setLinkSent] = useState(false);
  // shown at once, put back if the server refuses the change
  const [choice, setChoice] = useState({
    language: user.language,
    emailNotifications: user.emailNotifications,
  });

  // the name travels along: the profile update always carries it
  const save = async (change: Pick<Partial<UserDto>, 'language' | 'emailNotifications'>) => {
    const before = choice;
    setChoice({ ...choice, ...change });
    setBusy(true);
    try {
      const reply = await request<{ data: UserDto }>('/users/me', {
        method: 'PUT',
        body: { name: user.name, ...change },
      });
      setUser((old) => ({ ...old, ...reply.data }));
      toast.success(t('mailPrefs.saved'));
    } catch (err) {
      setChoice(before);
      toast.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  const sendLink = async () => {
    setBusy(true);
    try {
      await request('/users/me/verify-email', { method: 'POST' });
      setLinkSent(true);
    } catch (err) {
      toast.error(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card security-card" aria-labelledby="mail-prefs-title" data-testid="mail-preferences">
      <h2 id="mail-prefs-title">{t('mailPrefs.title')}</h2>
      <p data-testid="email-state" data-verified={user.emailVerified ? 'yes' : 'no'}>
        <span className={`badge ${user.emailVerified ? 'badge-ok' : 'badge-warn'}`}>
          {user.emailVerified ? t('mailPrefs.verified') : t('mailPrefs.unverified')}
        </span>{' '}
        <span className="muted">{user.email}</span>
      </p>
      {configured === false && (
        <p className="notice notice-info" data-testid="mail-not-set-up">
          {t('mailPrefs.notSetUp')} <a href={`mailto:${contact.email}`}>{contact.email}</a>
        </p>
      )}
      {configured && !user.emailVerified && (
        <div className="notice notice-warning" data-testid="verify-offer">
          <p>{t('mailPrefs.verifyIntro')}</p>
          {linkSent ? (
            <p role="status">{t('mailPrefs.linkSent', { email: user.email })}</p>
          ) : (
            <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={sendLink}>
              {t('mailPrefs.sendLink')}
            </button>
          )}
        </div>
      )}
      <div className="field">
        <label htmlFor="mail-language">{t('mailPrefs.language')}</label>
        <select
          id="mail-language"
          value={choice.language}
          disabled={busy}
          onChange={(e) => void save({ language: e.target.value === 'en' ? 'en' : 'tr' })}
        >
          <option value="tr" lang="tr">
            Türkçe
          </option>
          <option value="en" lang="en">
            English
          </option>
        </select>
      </div>
      <label className="checkbox">
        <input
          id="mail-notifications"
          type="checkbox"
          checked={choice.emailNotifications}
          disabled={busy}
          onChange={(e) => void save({ emailNotifications: e.target.checked })}
        />
        <span>{t('mailPrefs.notifications')}</span>
      </label>
      <p className="muted small">{t('mailPrefs.notificationsHint')}</p>
    </section>
  );
}
