import { Hono } from 'hono';
import { updateProfileSchema } from '../../contract/profile';
import { requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { myCompletedTasks, updateMyProfile } from './profile.service';

/** PUT /api/users/me and GET /api/users/me/completed-tasks, mounted beside the users routes. */
export const profileRoutes = new Hono<AppEnv>()
  .put('/me', requireUser, async (c) => {
    const input = await readJson(c, updateProfileSchema);
    return c.json({ success: true, data: await updateMyProfile(c.var.deps, c.var.user, input) });
  })
  .get('/me/completed-tasks', requireUser, async (c) => {
    return c.json({ success: true, data: await myCompletedTasks(c.var.deps, c.var.user) });
  });
