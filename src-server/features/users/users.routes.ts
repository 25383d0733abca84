import { Hono } from 'hono';
import { requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { toUserDto } from './users.mapper';
import { userTotals } from './users.repository';

export const usersRoutes = new Hono<AppEnv>().get('/me', requireUser, async (c) => {
  const user = c.var.user;
  return c.json({ success: true, data: toUserDto(user, await userTotals(c.var.deps.db, user._id)) });
});
