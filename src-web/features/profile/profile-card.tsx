import { TIMINGS_MS } from '@contract/constants';
import type { UserDto } from '@contract/types';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/avatar';
import { formatDate } from '../../lib/format';
import { ProfileEditForm } from './profile-edit-form';

type Message = { kind: 'success' | 'error'; text: string };

/** Avatar, name, join date, admin badge, contact details, and the edit toggle with its form. */
export function ProfileCard({ user }: { user: UserDto }) {
  const { t } = useTranslation('profile');
  const [editing, setEditing] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);

  // success banners clear after 3 s; errors stay until the next action
  useEffect(() => {
    if (message?.kind !== 'success') return;
    const timer = setTimeout(() => setMessage(null), TIMINGS_MS.successBanner);
    return () => clearTimeout(timer);
  }, [message]);

  const toggle = () => {
    setMessage(null);
    setEditing((v) => !v);
  };

  const details: [string, string | null][] = [
    ['email', user.email],
    ['phone', user.phone],
    ['address', user.address],
    ['bio', user.bio],
  ];

  return (
    <section className="card profile-main" aria-labelledby="profile-title" data-testid="profile-card">
      <div className="profile-head">
        <Avatar name={user.name} image={user.profileImage} size={72} />
        <div className="profile-head-text">
          <h1 id="profile-title">
            <span data-testid="profile-name">{user.name}</span>
            {user.role === 'admin' && <span className="badge profile-admin-badge">{t('card.admin')}</span>}
          </h1>
          <p className="muted">{t('card.joined', { date: formatDate(user.joinDate) })}</p>
        </div>
      </div>
      <button
        type="button"
        className="btn btn-outline btn-sm profile-edit-toggle"
        aria-expanded={editing}
        aria-controls="profile-edit"
        onClick={toggle}
      >
        {editing ? t('card.cancelEdit') : t('card.edit')}
      </button>
      {message && (
        <div
          className={`notice notice-${message.kind}`}
          role={message.kind === 'error' ? 'alert' : 'status'}
          data-testid="profile-message"
        >
          {message.text}
        </div>
      )}
      <div id="profile-edit">
        {editing ? (
          <ProfileEditForm
            user={user}
            onSaved={() => {
              setEditing(false);
              setMessage({ kind: 'success', text: t('profilePageUpdateSuccess') });
            }}
            onFailed={(text) => setMessage({ kind: 'error', text })}
          />
        ) : (
          <dl className="profile-details">
            {details
              .filter(([, value]) => value)
              .map(([key, value]) => (
                <div key={key} className={`profile-detail profile-detail-${key}`}>
                  <dt>{t(`card.${key}`)}</dt>
                  <dd className={key === 'bio' ? 'pre-line' : undefined}>{value}</dd>
                </div>
              ))}
          </dl>
        )}
      </div>
    </section>
  );
}
