import { Hono } from 'hono';
import { z } from 'zod';
import {
  forgotPasswordSchema,
  type MailStatusDto,
  resetPasswordSchema,
  verifyEmailSchema,
} from '../../contract/account';
import { envelope } from '../../contract/envelope';
import { requireUser } from '../../http/auth';
import { clientIp, signInOrigin } from '../../http/client-ip';
import { issueDeviceCookie } from '../../http/device-cookie';
import type { AppEnv } from '../../http/env';
import { publicBase } from '../../http/public-url';
import { readJson } from '../../http/validate';
import { requestPasswordReset, resendVerification, resetPassword, verifyEmail } from './account-mail.service';
import { toUserDto } from './users.mapper';
import { userTotals } from './users.repository';

/** The mailed links of an account: password reset and address verification, under /api/auth. */
export const accountMailRoutes = new Hono<AppEnv>()
  .get('/mail-status', (c) => {
    const data: MailStatusDto = { configured: c.var.deps.mail.configured };
    return c.json(envelope(data));
  })
  .post('/forgot-password', async (c) => {
    const { email } = await readJson(c, forgotPasswordSchema);
    await requestPasswordReset(c.var.deps, email, clientIp(c), publicBase(c));
    // no data: the same reply whether or not the address has an account (undefined data is not sent)
    return c.json(
      envelope(undefined, {
        message: 'If an account uses this address, a link to reset its password is on its way',
      }),
    );
  })
  .post('/reset-password', async (c) => {
    const input = await readJson(c, resetPasswordSchema);
    const { user, token } = await resetPassword(c.var.deps, input, signInOrigin(c));
    await issueDeviceCookie(c, user._id);
    // with two-factor on, no session yet: the reply says so and the page sends the user to sign in
    if (token === null)
      return c.json(
        envelope(undefined, { token: null, twoFactorRequired: true, message: 'Password changed' }),
      );
    const data = toUserDto(user, await userTotals(c.var.deps.db, user._id));
    return c.json(envelope(data, { token, message: 'Password changed' }));
  })
  .post('/verify-email', async (c) => {
    const { token } = await readJson(c, verifyEmailSchema);
    return c.json(envelope(await verifyEmail(c.var.deps, token, clientIp(c))));
  });

/** POST /api/users/me/verify-email: a new verification link to the signed-in account. */
export const verifyResendRoutes = new Hono<AppEnv>().post('/me/verify-email', requireUser, async (c) => {
  await readJson(c, z.object({}).strict());
  await resendVerification(c.var.deps, c.var.user, clientIp(c), publicBase(c));
  return c.json(envelope({ sent: true }));
});
