import type { RouteObject } from 'react-router-dom';

/**
 * The feature pages, loaded on demand so the first page stays small.
 * Each feature folder exports its page component; this file only wires paths to them.
 */
export const routes: { public: RouteObject[]; signedIn: RouteObject[]; admin: RouteObject[] } = {
  public: [
    {
      path: '/tasks',
      lazy: () => import('../features/tasks/tasks-page').then((m) => ({ Component: m.TasksPage })),
    },
    {
      path: '/tasks/:id',
      lazy: () => import('../features/tasks/task-detail-page').then((m) => ({ Component: m.TaskDetailPage })),
    },
  ],
  signedIn: [
    {
      path: '/profile',
      lazy: () => import('../features/profile/profile-page').then((m) => ({ Component: m.ProfilePage })),
    },
    {
      path: '/my-submissions',
      lazy: () =>
        import('../features/submissions/my-submissions-page').then((m) => ({
          Component: m.MySubmissionsPage,
        })),
    },
    {
      path: '/tasks/:id/edit',
      lazy: () => import('../features/tasks/task-edit-page').then((m) => ({ Component: m.TaskEditPage })),
    },
  ],
  admin: [
    {
      lazy: () => import('../features/admin/admin-layout').then((m) => ({ Component: m.AdminLayout })),
      children: [
        {
          index: true,
          lazy: () =>
            import('../features/admin/dashboard-page').then((m) => ({ Component: m.DashboardPage })),
        },
        {
          path: 'tasks',
          lazy: () => import('../features/admin/tasks-page').then((m) => ({ Component: m.AdminTasksPage })),
        },
        {
          path: 'tasks/new',
          lazy: () =>
            import('../features/admin/task-form-page').then((m) => ({ Component: m.AdminTaskFormPage })),
        },
        {
          path: 'tasks/edit/:id',
          lazy: () =>
            import('../features/admin/task-form-page').then((m) => ({ Component: m.AdminTaskFormPage })),
        },
        {
          path: 'settings',
          lazy: () =>
            import('../features/admin/settings-page').then((m) => ({ Component: m.AdminSettingsPage })),
        },
        {
          path: 'users',
          lazy: () => import('../features/admin-review/users-page').then((m) => ({ Component: m.UsersPage })),
        },
        {
          path: 'users/:id',
          lazy: () =>
            import('../features/admin-review/user-detail-page').then((m) => ({
              Component: m.UserDetailPage,
            })),
        },
        {
          path: 'submissions',
          lazy: () =>
            import('../features/admin-review/submissions-page').then((m) => ({
              Component: m.SubmissionsPage,
            })),
        },
        {
          path: 'withdrawals',
          lazy: () =>
            import('../features/admin-review/withdrawals-page').then((m) => ({
              Component: m.WithdrawalsPage,
            })),
        },
      ],
    },
  ],
};
