import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { allowEnrolment, requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { toUserDto } from './users.mapper';
import { userTotals } from './users.repository';

/** GET /api/users/me: reachable while an admin enrols in two-factor (the screen needs who they are). */
export const usersRoutes = new Hono<AppEnv>().get('/me', allowEnrolment, requireUser, async (c) => {
  const user = c.var.user;
  return c.json(envelope(toUserDto(user, await userTotals(c.var.deps.db, user._id))));
});
