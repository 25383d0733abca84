import { Hono } from 'hono';
import { loginSchema, registerSchema } from '../../contract/schemas';
import { clientIp } from '../../http/client-ip';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { login, register } from './auth.service';
import { issueDeviceCookie, presentedDevice } from './device-cookie';
import { toUserDto } from './users.mapper';
import { userTotals } from './users.repository';

export const authRoutes = new Hono<AppEnv>()
  .post('/register', async (c) => {
    const input = await readJson(c, registerSchema);
    const { user, token } = await register(c.var.deps, input, clientIp(c));
    await issueDeviceCookie(c, user._id);
    const data = toUserDto(user, await userTotals(c.var.deps.db, user._id));
    return c.json({ success: true, token, message: 'Registration successful', data }, 201);
  })
  .post('/login', async (c) => {
    const input = await readJson(c, loginSchema);
    const { user, token } = await login(c.var.deps, input, clientIp(c), presentedDevice(c));
    await issueDeviceCookie(c, user._id);
    const data = toUserDto(user, await userTotals(c.var.deps.db, user._id));
    return c.json({ success: true, token, message: 'Login successful', data });
  });
