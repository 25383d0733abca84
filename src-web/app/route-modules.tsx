import type { RouteObject } from 'react-router-dom';
import { loadAdminLocales, loadFormLocales, loadPageLocales } from '../lib/i18n';

/** A page that uses the tasks, profile or submissions texts: they load along with its code. */
const withPageLocales = <T,>(load: () => Promise<T>) =>
  Promise.all([load(), loadPageLocales()]).then(([m]) => m);

/** Any other page: the forms' and the error texts (not the landing's) load along with its code. */
const withFormLocales = <T,>(load: () => Promise<T>) =>
  Promise.all([load(), loadFormLocales()]).then(([m]) => m);

/**
 * The feature pages, loaded on demand so the first page stays small.
 * Each feature folder exports its page component; this file only wires paths to them.
 */
export const routes: {
  public: RouteObject[];
  signedOut: RouteObject[];
  signedIn: RouteObject[];
  admin: RouteObject[];
} = {
  public: [
    // the legal pages, linked from the sign-up form and the footer
    ...(['terms', 'privacy', 'kvkk'] as const).map((document) => ({
      path: `/${document}`,
      lazy: () =>
        withFormLocales(() => import('../features/legal/legal-page')).then((m) => ({
          Component: () => <m.LegalPage document={document} />,
        })),
    })),
    {
      // the first-run link from the server's log; public, so a signed-in visitor still sees it
      path: '/setup',
      lazy: () =>
        withFormLocales(() => import('../features/auth/setup-page')).then((m) => ({
          Component: m.SetupPage,
        })),
    },
    {
      path: '/forgot-password',
      lazy: () =>
        withFormLocales(() => import('../features/auth/forgot-password-page')).then((m) => ({
          Component: m.ForgotPasswordPage,
        })),
    },
    {
      path: '/reset-password',
      lazy: () =>
        withFormLocales(() => import('../features/auth/reset-password-page')).then((m) => ({
          Component: m.ResetPasswordPage,
        })),
    },
    {
      path: '/verify-email',
      lazy: () =>
        withFormLocales(() => import('../features/auth/verify-email-page')).then((m) => ({
          Component: m.VerifyEmailPage,
        })),
    },
    {
      path: '/tasks',
      lazy: () =>
        withPageLocales(() => import('../features/tasks/tasks-page')).then((m) => ({
          Component: m.TasksPage,
        })),
    },
    {
      path: '/tasks/:id',
      lazy: () =>
        withPageLocales(() => import('../features/tasks/task-detail-page')).then((m) => ({
          Component: m.TaskDetailPage,
        })),
    },
  ],
  // the forms validate with the shared zod schemas: loaded with the form, not with the home page
  signedOut: [
    {
      path: '/login',
      lazy: () =>
        withFormLocales(() => import('../features/auth/login-page')).then((m) => ({
          Component: m.LoginPage,
        })),
    },
    {
      path: '/register',
      lazy: () =>
        withFormLocales(() => import('../features/auth/register-page')).then((m) => ({
          Component: m.RegisterPage,
        })),
    },
  ],
  signedIn: [
    {
      path: '/profile',
      lazy: () =>
        withPageLocales(() => import('../features/profile/profile-page')).then((m) => ({
          Component: m.ProfilePage,
        })),
    },
    {
      path: '/my-submissions',
      lazy: () =>
        withPageLocales(() => import('../features/submissions/my-submissions-page')).then((m) => ({
          Component: m.MySubmissionsPage,
        })),
    },
    {
      path: '/earnings',
      lazy: () =>
        withPageLocales(() => import('../features/profile/earnings-page')).then((m) => ({
          Component: m.EarningsPage,
        })),
    },
    {
      path: '/my-tasks',
      lazy: () =>
        withPageLocales(() => import('../features/submissions/my-tasks-page')).then((m) => ({
          Component: m.MyTasksPage,
        })),
    },
    {
      path: '/notifications',
      // the rejection reasons a message names are in the submissions texts
      lazy: () =>
        withPageLocales(() => import('../features/inbox/inbox-page')).then((m) => ({
          Component: m.InboxPage,
        })),
    },
    {
      path: '/tasks/:id/edit',
      lazy: () =>
        withPageLocales(() => import('../features/tasks/task-edit-page')).then((m) => ({
          Component: m.TaskEditPage,
        })),
    },
  ],
  admin: [
    {
      // the admin namespaces of the locales come with the admin screens, not with the first page
      lazy: () =>
        Promise.all([import('../features/admin/shell/admin-layout'), loadAdminLocales()]).then(([m]) => ({
          Component: m.AdminLayout,
        })),
      children: [
        {
          index: true,
          lazy: () =>
            import('../features/admin/dashboard/dashboard-page').then((m) => ({
              Component: m.DashboardPage,
            })),
        },
        {
          path: 'tasks',
          lazy: () =>
            import('../features/admin/tasks/tasks-page').then((m) => ({ Component: m.AdminTasksPage })),
        },
        {
          path: 'tasks/new',
          lazy: () =>
            import('../features/admin/tasks/task-form-page').then((m) => ({
              Component: m.AdminTaskFormPage,
            })),
        },
        {
          path: 'tasks/edit/:id',
          lazy: () =>
            import('../features/admin/tasks/task-form-page').then((m) => ({
              Component: m.AdminTaskFormPage,
            })),
        },
        {
          path: 'settings',
          lazy: () =>
            import('../features/admin/settings/settings-page').then((m) => ({
              Component: m.AdminSettingsPage,
            })),
        },
        {
          path: 'system',
          lazy: () =>
            import('../features/admin/system/system-page').then((m) => ({ Component: m.SystemPage })),
        },
        {
          path: 'audit',
          lazy: () => import('../features/admin/audit/audit-page').then((m) => ({ Component: m.AuditPage })),
        },
        {
          path: 'users',
          lazy: () => import('../features/admin/users/users-page').then((m) => ({ Component: m.UsersPage })),
        },
        {
          path: 'users/:id',
          lazy: () =>
            import('../features/admin/users/user-detail-page').then((m) => ({
              Component: m.UserDetailPage,
            })),
        },
        {
          path: 'submissions',
          lazy: () =>
            import('../features/admin/submissions/submissions-page').then((m) => ({
              Component: m.SubmissionsPage,
            })),
        },
        {
          path: 'withdrawals',
          lazy: () =>
            import('../features/admin/withdrawals/withdrawals-page').then((m) => ({
              Component: m.WithdrawalsPage,
            })),
        },
      ],
    },
  ],
};
