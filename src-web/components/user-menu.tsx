import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../app/paths';
import { useAuth } from '../lib/auth';
import { Avatar } from './avatar';

function menuItems(list: HTMLElement | null): HTMLElement[] {
  return [...(list?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
}

/**
 * The signed-in user's menu (profile, admin panel, log out) as a menu button: opening it moves
 * focus to its first item, the arrow keys, Home and End move between items, Escape closes it
 * and gives focus back to the button, and a click outside or Tab closes it.
 */
export function UserMenu() {
  const { user, signOut } = useAuth();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const items = () => menuItems(listRef.current);

  useEffect(() => {
    if (!open) return;
    menuItems(listRef.current)[0]?.focus();
    const outside = (e: MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  if (!user) return null;

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const onMenuKey = (e: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      e.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(list.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') close(false);
  };
  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
    }
  };
  const logout = () => {
    close(false);
    signOut();
    navigate(paths.home);
  };

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="user-menu-list"
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onButtonKey}
        data-testid="user-menu"
      >
        <Avatar name={user.name} image={user.profileImage} size={32} />
        {/* the name is the button's visible text (kept for screen readers on a phone, where it is
            not shown), then what the button opens: the accessible name starts with what is seen */}
        <span className="user-menu-name">{user.name}</span>
        <span className="sr-only">{` ${t('nav.userMenu')}`}</span>
      </button>
      {open && (
        <div className="user-menu-list" role="menu" id="user-menu-list" ref={listRef} onKeyDown={onMenuKey}>
          <Link role="menuitem" to={paths.profile} onClick={() => close(false)}>
            {t('nav.profile')}
          </Link>
          {/* the earnings page is otherwise only in the laptop's top bar */}
          <Link role="menuitem" to={paths.earnings} onClick={() => close(false)}>
            {t('nav.earnings')}
          </Link>
          {user.role === 'admin' && (
            <Link role="menuitem" to={paths.admin} onClick={() => close(false)}>
              {t('nav.admin')}
            </Link>
          )}
          <button role="menuitem" type="button" onClick={logout}>
            {t('nav.logout')}
          </button>
        </div>
      )}
    </div>
  );
}
