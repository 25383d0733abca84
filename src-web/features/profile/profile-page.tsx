import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/avatar';
import { useAuth } from '../../lib/auth';
import { formatLongDate, formatMoney } from '../../lib/format';

// Replaced by the full profile of the money issue.
export function ProfilePage() {
  const { user } = useAuth();
  const { t } = useTranslation();
  if (!user) return null;
  return (
    <section className="container section">
      <div className="card profile-card">
        <Avatar name={user.name} image={user.profileImage} size={64} />
        <div>
          <h1>{user.name}</h1>
          <p className="muted">{user.email}</p>
          <p className="muted">{formatLongDate(user.joinDate)}</p>
          <p>{formatMoney(user.balance)}</p>
        </div>
      </div>
      <p className="muted">{t('nav.profile')}</p>
    </section>
  );
}
