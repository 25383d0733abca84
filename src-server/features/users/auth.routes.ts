import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { loginSchema, registerSchema } from '../../contract/schemas';
import { signInOrigin } from '../../http/client-ip';
import { issueDeviceCookie, presentedDevice } from '../../http/device-cookie';
import type { AppEnv } from '../../http/env';
import { publicBase } from '../../http/public-url';
import { readJson } from '../../http/validate';
import { queueVerification } from './account-mail.service';
import { login, register } from './auth.service';
import { toUserDto } from './users.mapper';
import { userTotals } from './users.repository';

export const authRoutes = new Hono<AppEnv>()
  .post('/register', async (c) => {
    const input = await readJson(c, registerSchema);
    const { user, token } = await register(c.var.deps, input, signInOrigin(c));
    await issueDeviceCookie(c, user._id);
    if (c.var.deps.mail.configured) {
      // the account exists already: a mail that could not be queued is asked for again from the
      // profile, never a failed registration
      await queueVerification(c.var.deps, user, publicBase(c)).catch((err: unknown) => {
        console.error('registration: the verification mail was not queued', err);
      });
    }
    const data = toUserDto(user, await userTotals(c.var.deps.db, user._id));
    return c.json(envelope(data, { token, message: 'Registration successful' }), 201);
  })
  .post('/login', async (c) => {
    const input = await readJson(c, loginSchema);
    const { user, token } = await login(c.var.deps, input, signInOrigin(c), presentedDevice(c));
    await issueDeviceCookie(c, user._id);
    const data = toUserDto(user, await userTotals(c.var.deps.db, user._id));
    return c.json(envelope(data, { token, message: 'Login successful' }));
  });
