import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { paths } from '../app/paths';
import { useAuth } from '../lib/auth';
import { CheckIcon, ListIcon, UserIcon } from './icons';

/** The phone-width navigation for signed-in users: tasks, my tasks, profile. */
export function BottomBar() {
  const { user } = useAuth();
  const { t } = useTranslation();
  if (!user) return null;
  return (
    <nav className="bottombar" aria-label={t('nav.mobile')} data-testid="bottom-bar">
      <NavLink to={paths.tasks}>
        <ListIcon />
        <span>{t('nav.tasks')}</span>
      </NavLink>
      <NavLink to={paths.myTasks}>
        <CheckIcon />
        <span>{t('nav.myTasks')}</span>
      </NavLink>
      <NavLink to={paths.profile}>
        <UserIcon />
        <span>{t('nav.profile')}</span>
      </NavLink>
    </nav>
  );
}
