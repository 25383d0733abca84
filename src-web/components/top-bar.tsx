import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import { paths } from '../app/paths';
import { useAuth } from '../lib/auth';
import { useSettings } from '../lib/settings';
import { Avatar } from './avatar';
import { LanguageSwitch } from './language-switch';

export function TopBar() {
  const { user, signOut } = useAuth();
  const settings = useSettings();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !menuRef.current?.contains(e.target as Node)) {
        setMenuOpen(false);
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [menuOpen]);

  const logout = () => {
    setMenuOpen(false);
    signOut();
    navigate(paths.home);
  };

  return (
    <header className="topbar">
      <div className="container topbar-inner">
        <Link to={user ? paths.tasks : paths.home} className="brand">
          <img src={settings.site.logo || '/icon.svg'} alt="" width={28} height={28} />
          <span>{settings.site.name}</span>
        </Link>
        <nav className="topnav" aria-label={t('nav.main')}>
          {!user && (
            <NavLink to={paths.home} end>
              {t('nav.home')}
            </NavLink>
          )}
          <NavLink to={paths.tasks}>{t('nav.tasks')}</NavLink>
          {user && <NavLink to={paths.mySubmissions}>{t('nav.myTasks')}</NavLink>}
          {user && <NavLink to={paths.profile}>{t('nav.earnings')}</NavLink>}
          {user?.role === 'admin' && <NavLink to={paths.admin}>{t('nav.admin')}</NavLink>}
        </nav>
        <div className="topbar-actions">
          <LanguageSwitch />
          {user ? (
            <div className="user-menu" ref={menuRef}>
              <button
                type="button"
                className="user-menu-button"
                aria-haspopup="menu"
                aria-expanded={menuOpen}
                onClick={() => setMenuOpen((o) => !o)}
                data-testid="user-menu"
              >
                <Avatar name={user.name} image={user.profileImage} size={32} />
                <span className="user-menu-name">{user.name}</span>
              </button>
              {menuOpen && (
                <div className="user-menu-list" role="menu">
                  <Link role="menuitem" to={paths.profile} onClick={() => setMenuOpen(false)}>
                    {t('nav.profile')}
                  </Link>
                  {user.role === 'admin' && (
                    <Link role="menuitem" to={paths.admin} onClick={() => setMenuOpen(false)}>
                      {t('nav.admin')}
                    </Link>
                  )}
                  <button role="menuitem" type="button" onClick={logout}>
                    {t('nav.logout')}
                  </button>
                </div>
              )}
            </div>
          ) : (
            <div className="auth-links">
              <Link className="btn btn-ghost" to={paths.login}>
                {t('nav.login')}
              </Link>
              <Link className="btn btn-primary hide-sm" to={paths.register}>
                {t('nav.register')}
              </Link>
            </div>
          )}
        </div>
      </div>
    </header>
  );
}
