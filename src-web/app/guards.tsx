import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from '../components/page-loader';
import { useTwoFactorStatus } from '../components/security/two-factor-status';
import { useToast } from '../components/toast';
import { useAuth } from '../lib/auth';
import { loadPageLocales } from '../lib/i18n';
import { paths } from './paths';

/** Logged-out visitors go to /login (and come back after signing in). */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) return <PageLoader />;
  if (!user) return <Navigate to={paths.login} replace state={{ from: location.pathname }} />;
  return children ?? <Outlet />;
}

/**
 * While the settings require two-factor of admins, an admin without it sees only its enrolment
 * (the API refuses them everything else with two_factor_enrolment_required).
 */
function TwoFactorEnrolment({ children }: { children: ReactNode }) {
  const status = useTwoFactorStatus();
  if (status.isPending) return <PageLoader />;
  if (!status.data?.required || status.data.enabled) return children;
  return (
    <Suspense fallback={<PageLoader />}>
      <EnrolmentScreen />
    </Suspense>
  );
}

// the screen and its QR code library load only for the admin who needs them
const EnrolmentScreen = lazy(() =>
  Promise.all([import('../components/security/enrolment-screen'), loadPageLocales()]).then(([m]) => ({
    default: m.EnrolmentScreen,
  })),
);

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
  return <TwoFactorEnrolment>{children ?? <Outlet />}</TwoFactorEnrolment>;
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
