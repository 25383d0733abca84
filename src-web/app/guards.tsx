import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from '../components/page-loader';
import { useToast } from '../components/toast';
import { useAuth } from '../lib/auth';
import { paths } from './paths';

/** Logged-out visitors go to /login (and come back after signing in). */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <PageLoader />;
  if (!user) return <Navigate to={paths.login} replace state={{ from: location.pathname }} />;
  return children ?? <Outlet />;
}

/** Non-admins are sent to the home page, told that access is denied. */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const { user, loading } = useAuth();
  const denied = !loading && user?.role !== 'admin';
  const toast = useToast();
  const { t } = useTranslation();
  useEffect(() => {
    if (denied) toast.error(`${t('denied.title')}: ${t('denied.message')}`);
  }, [denied, toast, t]);
  if (loading) return <PageLoader />;
  if (denied) return <Navigate to={paths.home} replace />;
  return children ?? <Outlet />;
}

/**
 * /login and /register send signed-in users on: back where a guard stopped them, else
 * admins to /admin and users to /tasks (where the home page would send them too).
 * Signing in on these pages is what triggers it, so the pages need not navigate themselves.
 */
export function RedirectIfAuthed({ children }: { children: ReactNode }) {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <PageLoader />;
  if (user) {
    const from = (location.state as { from?: string } | null)?.from;
    const target = user.role === 'admin' ? paths.admin : from?.startsWith('/') ? from : paths.tasks;
    return <Navigate to={target} replace />;
  }
  return children;
}
