import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { registerSchema } from '../../contract/schemas';
import { signInOrigin } from '../../http/client-ip';
import { issueDeviceCookie } from '../../http/device-cookie';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { toUserDto } from '../users/users.mapper';
import { userTotals } from '../users/users.repository';
import { checkSetup, createFirstAdmin, SETUP_TOKEN_HEADER } from './setup.service';

/** The first-run setup (the link `serve` prints while there is no admin): check it, then use it. */
export const setupRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    await checkSetup(c.var.deps, c.req.header(SETUP_TOKEN_HEADER));
    return c.json(envelope({ open: true }));
  })
  .post('/', async (c) => {
    const token = c.req.header(SETUP_TOKEN_HEADER);
    // refused before the body is read, let alone a password hashed
    await checkSetup(c.var.deps, token);
    const input = await readJson(c, registerSchema);
    const { user, token: session } = await createFirstAdmin(c.var.deps, token, input, signInOrigin(c));
    // the site owner's own device, like a sign-in's: it signs in while strangers are locked out
    await issueDeviceCookie(c, user._id);
    const data = toUserDto(user, await userTotals(c.var.deps.db, user._id));
    return c.json(envelope(data, { token: session, message: 'Admin account created' }), 201);
  });
