import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { twoFactorDisableSchema, twoFactorEnableSchema, twoFactorSetupSchema } from '../../contract/sessions';
import { allowEnrolment, requireAdmin, requireUser } from '../../http/auth';
import { clientIp } from '../../http/client-ip';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { requireUserRow } from './admin-users.service';
import {
  disableOwnTwoFactor,
  enableTwoFactorWithCode,
  removeTwoFactorByAdmin,
  startTwoFactorSetup,
  twoFactorStatus,
} from './two-factor.service';

/** /api/users/me/two-factor: the account's own second factor, reachable while enrolling. */
export const twoFactorRoutes = new Hono<AppEnv>()
  .use('/me/two-factor', allowEnrolment, requireUser)
  .use('/me/two-factor/*', allowEnrolment, requireUser)
  .get('/me/two-factor', async (c) => {
    return c.json(envelope(await twoFactorStatus(c.var.deps, c.var.user)));
  })
  .post('/me/two-factor/setup', async (c) => {
    const { currentPassword } = await readJson(c, twoFactorSetupSchema);
    const data = await startTwoFactorSetup(c.var.deps, c.var.user, currentPassword, clientIp(c));
    return c.json(envelope(data));
  })
  .post('/me/two-factor/enable', async (c) => {
    const { code } = await readJson(c, twoFactorEnableSchema);
    const recoveryCodes = await enableTwoFactorWithCode(c.var.deps, c.var.user, code ?? '');
    return c.json(envelope({ recoveryCodes }));
  })
  .post('/me/two-factor/disable', async (c) => {
    const input = await readJson(c, twoFactorDisableSchema);
    await disableOwnTwoFactor(c.var.deps, c.var.user, input, clientIp(c));
    return c.json(envelope({ enabled: false }));
  });

/** DELETE /api/admin/users/{id}/two-factor: an admin removes another user's second factor. */
export const adminTwoFactorRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .delete('/:id/two-factor', async (c) => {
    const { deps } = c.var;
    const user = await requireUserRow(deps, c.req.param('id'));
    await removeTwoFactorByAdmin(deps, c.var.user._id, user);
    return c.json(envelope({ twoFactorEnabled: false }));
  });
