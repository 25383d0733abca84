import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppDeps } from './deps';
import { fail } from './errors';
import { adminAuditRoutes } from './features/audit/audit.routes';
import { adminExportRoutes } from './features/exports/admin-exports.routes';
import { statementRoutes } from './features/exports/statement.routes';
import { filesRoutes } from './features/files/files.routes';
import { adminFlagsRoutes } from './features/fraud/fraud.routes';
import { inboxRoutes } from './features/notifications/inbox.routes';
import { notificationStatusRoutes, notificationsRoutes } from './features/notifications/notifications.routes';
import { adminUserRoutes } from './features/processes/admin-user.routes';
import { adminBulkRoutes } from './features/processes/bulk-actions.routes';
import { settingsRoutes } from './features/settings/settings.routes';
import { setupRoutes } from './features/setup/setup.routes';
import { adminStatsRoutes } from './features/stats/admin-stats.routes';
import { adminSubmissionsRoutes } from './features/submissions/admin-submissions.routes';
import { adminAppealRoutes, appealRoutes } from './features/submissions/appeals.routes';
import { reviewRoutes } from './features/submissions/review.routes';
import { submissionsRoutes } from './features/submissions/submissions.routes';
import { systemRoutes } from './features/system/system.routes';
import { tasksRoutes } from './features/tasks/tasks.routes';
import { accountMailRoutes, verifyResendRoutes } from './features/users/account-mail.routes';
import { adminUsersRoutes } from './features/users/admin-users.routes';
import { authRoutes } from './features/users/auth.routes';
import { profileRoutes } from './features/users/profile.routes';
import { adminSessionsRoutes, sessionsRoutes } from './features/users/sessions.routes';
import { adminTwoFactorRoutes, twoFactorRoutes } from './features/users/two-factor.routes';
import { adminUserNotesRoutes } from './features/users/user-notes.routes';
import { usersRoutes } from './features/users/users.routes';
import { adminWithdrawalsRoutes } from './features/withdrawals/admin-withdrawals.routes';
import { withdrawalsRoutes } from './features/withdrawals/withdrawals.routes';
import { requireAdmin } from './http/auth';
import type { AppEnv } from './http/env';
import { onError } from './http/on-error';
import { rejectCredentialsInUrl } from './http/request-target';
import { securityHeaders } from './http/security';
import { mountWebApp } from './http/static';
import { startProcessMetrics } from './observability/metrics';
import { opsRoutes } from './observability/ops.routes';
import { requestLog } from './observability/request-log';

/** JSON bodies larger than this are refused with a 413 before they are read. */
export const JSON_BODY_LIMIT = 256 * 1024;

/**
 * The whole HTTP application, without listening: `serve` (cli/serve.ts) listens with it and the
 * tests call it with app.request(). The desktop shell builds no app of its own: it starts this
 * same server as a child process (src-desktop/server-process.ts) and opens its pages.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.onError(onError);
  // metrics are kept only where something can read them (METRICS_TOKEN or METRICS_PORT)
  const metrics = Boolean(deps.config.metricsToken || deps.config.metricsPort);
  if (metrics) startProcessMetrics();
  // first, so its duration covers every other step and its line every answer
  app.use('*', requestLog({ trustProxy: deps.config.trustProxy, metrics }));
  app.use('*', securityHeaders());
  app.use('*', rejectCredentialsInUrl);
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });

  const api = new Hono<AppEnv>({ strict: false });
  api.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    // a GET or HEAD has no body to limit (the adapter gives it none); asking would build the
    // whole Request object, a tenth of the task list's time
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    // multipart routes enforce their own, larger limit while streaming
    if (c.req.header('Content-Type')?.startsWith('multipart/form-data')) return next();
    return bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: () => Promise.reject(fail.tooLarge()) })(c, next);
  });
  // every /api/admin path, known or not, is for admins only; each admin route checks again
  api.use('/admin/*', requireAdmin);
  api.route('/auth', authRoutes);
  api.route('/auth', accountMailRoutes);
  api.route('/auth', notificationsRoutes);
  api.route('/users', statementRoutes);
  api.route('/users', usersRoutes);
  api.route('/users', profileRoutes);
  api.route('/users', verifyResendRoutes);
  api.route('/users', sessionsRoutes);
  api.route('/users', twoFactorRoutes);
  api.route('/settings', settingsRoutes);
  api.route('/setup', setupRoutes);
  api.route('/submissions', reviewRoutes);
  api.route('/submissions', appealRoutes);
  api.route('/submissions', submissionsRoutes);
  api.route('/tasks', tasksRoutes);
  api.route('/files', filesRoutes);
  api.route('/withdraws', withdrawalsRoutes);
  api.route('/notifications', inboxRoutes);
  // before the resources' routes: /admin/users/export.csv is not a user id
  api.route('/admin', adminExportRoutes);
  api.route('/admin', adminBulkRoutes);
  api.route('/admin/withdraws', adminWithdrawalsRoutes);
  api.route('/admin/stats', adminStatsRoutes);
  api.route('/admin/system', systemRoutes);
  api.route('/admin/audit', adminAuditRoutes);
  api.route('/admin/users', adminUserRoutes);
  api.route('/admin/users', adminSessionsRoutes);
  api.route('/admin/users', adminTwoFactorRoutes);
  api.route('/admin/users', adminUserNotesRoutes);
  api.route('/admin/users', adminUsersRoutes);
  api.route('/admin/flags', adminFlagsRoutes);
  api.route('/admin/submissions', adminAppealRoutes);
  api.route('/admin/submissions', adminSubmissionsRoutes);
  api.route('/admin/notifications', notificationStatusRoutes);
  api.all('*', () => {
    throw fail.notFound('route_not_found');
  });

  app.route('/api', api);
  app.route('/', opsRoutes);
  mountWebApp(app, deps.web);
  // anything else (a POST to a page, say) is an unknown route, in the contract's shape
  app.all('*', () => {
    throw fail.notFound('route_not_found');
  });
  return app;
}
