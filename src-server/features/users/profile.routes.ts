import { type Context, Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { updateProfileSchema } from '../../contract/profile';
import { requireUser } from '../../http/auth';
import { clientIp } from '../../http/client-ip';
import type { AppEnv } from '../../http/env';
import { receiveImageForm } from '../../http/image-upload';
import { check, readJson } from '../../http/validate';
import { myCompletedTasks, updateMyProfile } from './profile.service';
import { PROFILE_PHOTO_FORM } from './profile-photo';
import { keepSessionAfterPasswordChange } from './sessions.service';

/** PUT /api/users/me and GET /api/users/me/completed-tasks, mounted beside the users routes. */
/**
 * The reply of a profile save. After a password change every other session has ended: this
 * one gets a fresh token (as long-lived as the one it used) and stays signed in.
 */
async function saved(c: Context<AppEnv>, result: Awaited<ReturnType<typeof updateMyProfile>>) {
  const { deps, session } = c.var;
  const token = result.passwordChanged
    ? await keepSessionAfterPasswordChange(deps, result.row, session.sessionId, session.rememberMe)
    : undefined;
  return c.json(envelope(result.data, token ? { token } : {}));
}

export const profileRoutes = new Hono<AppEnv>()
  .put('/me', requireUser, async (c) => {
    const { deps, user } = c.var;
    const type = c.req.header('Content-Type') ?? '';
    if (!type.toLowerCase().startsWith('multipart/form-data')) {
      const input = await readJson(c, updateProfileSchema);
      return saved(c, await updateMyProfile(deps, user, input, clientIp(c)));
    }
    const upload = await receiveImageForm(deps, user._id, c.req.raw, PROFILE_PHOTO_FORM);
    try {
      const input = check(updateProfileSchema, upload.fields);
      return saved(c, await updateMyProfile(deps, user, input, clientIp(c), upload));
    } finally {
      await upload.discard();
    }
  })
  .get('/me/completed-tasks', requireUser, async (c) => {
    return c.json(envelope(await myCompletedTasks(c.var.deps, c.var.user)));
  });
