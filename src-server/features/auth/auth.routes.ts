import { Hono } from 'hono';
import { loginSchema, registerSchema } from '../../contract/schemas';
import { signInOrigin } from '../../http/client-ip';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { toUserDto } from '../users/users.mapper';
import { userTotals } from '../users/users.repository';
import { login, register } from './auth.service';
import { issueDeviceCookie, presentedDevice } from './device-cookie';

export const authRoutes = new Hono<AppEnv>()
  .post('/register', async (c) => {
    const input = await readJson(c, registerSchema);
    const { user, token } = await register(c.var.deps, input, signInOrigin(c));
    await issueDeviceCookie(c, user._id);
    const data = toUserDto(user, await userTotals(c.var.deps.db, user._id));
    return c.json({ success: true, token, message: 'Registration successful', data }, 201);
  })
  .post('/login', async (c) => {
    const input = await readJson(c, loginSchema);
    const { user, token } = await login(c.var.deps, input, signInOrigin(c), presentedDevice(c));
    await issueDeviceCookie(c, user._id);
    const data = toUserDto(user, await userTotals(c.var.deps.db, user._id));
    return c.json({ success: true, token, message: 'Login successful', data });
  });
