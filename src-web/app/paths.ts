/** Every URL of the web app, in one place. */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  setup: '/setup',
  tasks: '/tasks',
  task: (id: string) => `/tasks/${encodeURIComponent(id)}`,
  taskEdit: (id: string) => `/tasks/${encodeURIComponent(id)}/edit`,
  profile: '/profile',
  mySubmissions: '/my-submissions',
  /** the worker's started tasks by where they stand (in progress, waiting, appealed...) */
  myTasks: '/my-tasks',
  myTasksSection: (section: string) => `/my-tasks?section=${encodeURIComponent(section)}`,
  earnings: '/earnings',
  inbox: '/notifications',
  /** the public legal pages: terms of use, privacy policy, KVKK information notice */
  legal: (document: 'terms' | 'privacy' | 'kvkk') => `/${document}`,
  admin: '/admin',
  adminTasks: '/admin/tasks',
  adminTaskNew: '/admin/tasks/new',
  adminTaskEdit: (id: string) => `/admin/tasks/edit/${encodeURIComponent(id)}`,
  adminUsers: '/admin/users',
  adminUser: (id: string) => `/admin/users/${encodeURIComponent(id)}`,
  adminSubmissions: '/admin/submissions',
  adminWithdrawals: '/admin/withdrawals',
  /** the review screen for one task's or one worker's proofs, every status */
  adminSubmissionsOf: ({ task, user }: { task?: string; user?: string }) =>
    `/admin/submissions?status=all${task ? `&task=${encodeURIComponent(task)}` : ''}${user ? `&user=${encodeURIComponent(user)}` : ''}`,
  adminSettings: '/admin/settings',
  adminAudit: '/admin/audit',
  adminSystem: '/admin/system',
  adminUserAudit: (id: string) => `/admin/audit?targetType=user&targetId=${encodeURIComponent(id)}`,
} as const;
