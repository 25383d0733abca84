import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { paths } from '../app/paths';
import { useUnreadCount } from '../features/inbox/inbox-api';
import { useAuth } from '../lib/auth';
import { BellIcon } from './icons';

/** The top bar's bell: a link to the inbox with the unread count (99+ beyond 99). */
export function InboxBell() {
  const { user } = useAuth();
  const { t } = useTranslation();
  const unread = useUnreadCount(Boolean(user)).data ?? 0;
  if (!user) return null;
  const label = unread > 0 ? t('inbox.bellUnread', { count: unread }) : t('inbox.bell');
  return (
    <NavLink
      to={paths.inbox}
      className="inbox-bell"
      aria-label={label}
      title={label}
      data-testid="inbox-bell"
    >
      <BellIcon />
      {unread > 0 && (
        <span className="inbox-bell-count" data-testid="inbox-bell-count" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </NavLink>
  );
}
