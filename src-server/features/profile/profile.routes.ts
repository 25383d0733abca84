import { Hono } from 'hono';
import { updateProfileSchema } from '../../contract/profile';
import { requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { check, readJson } from '../../http/validate';
import { myCompletedTasks, updateMyProfile } from './profile.service';
import { receiveProfileForm } from './profile-photo';

/** PUT /api/users/me and GET /api/users/me/completed-tasks, mounted beside the users routes. */
export const profileRoutes = new Hono<AppEnv>()
  .put('/me', requireUser, async (c) => {
    const { deps, user } = c.var;
    const type = c.req.header('Content-Type') ?? '';
    if (!type.toLowerCase().startsWith('multipart/form-data')) {
      const input = await readJson(c, updateProfileSchema);
      return c.json({ success: true, data: await updateMyProfile(deps, user, input) });
    }
    const upload = await receiveProfileForm(deps, c.req.raw.body, type);
    try {
      const input = check(updateProfileSchema, upload.fields);
      return c.json({ success: true, data: await updateMyProfile(deps, user, input, upload) });
    } finally {
      await upload.discard();
    }
  })
  .get('/me/completed-tasks', requireUser, async (c) => {
    return c.json({ success: true, data: await myCompletedTasks(c.var.deps, c.var.user) });
  });
