import { Hono } from 'hono';
import { z } from 'zod';
import { envelope } from '../../contract/envelope';
import { allowEnrolment, requireAdmin, requireUser } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { requireUserRow } from './admin-users.service';
import { endOtherSessions, endOwnSession, endSessionsByAdmin, listSessions } from './sessions.service';
import { hasTwoFactor } from './two-factor.service';

/**
 * /api/users/me/sessions: the user's own sessions. Reachable while an admin enrols in
 * two-factor: ending a stolen session must never wait for anything.
 */

/** The routes that act without a body refuse one, as every other body-taking route refuses a wrong one. */
const noFields = z.object({}).strict();

export const sessionsRoutes = new Hono<AppEnv>()
  .use('/me/sessions', allowEnrolment, requireUser)
  .use('/me/sessions/*', allowEnrolment, requireUser)
  .get('/me/sessions', async (c) => {
    const { deps, user, session } = c.var;
    return c.json(envelope(await listSessions(deps, user, session.sessionId)));
  })
  .post('/me/sessions/revoke-others', async (c) => {
    await readJson(c, noFields);
    const { deps, user, session } = c.var;
    return c.json(envelope({ ended: await endOtherSessions(deps, user, session.sessionId) }));
  })
  .delete('/me/sessions/:id', async (c) => {
    const { deps, user, session } = c.var;
    const id = c.req.param('id');
    await endOwnSession(deps, user, session.sessionId, id);
    return c.json(envelope({ ended: 1, current: id === session.sessionId }));
  });

/** /api/admin/users/{id}/security and its sessions: an admin sees and ends a user's sessions. */
export const adminSessionsRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/:id/security', async (c) => {
    const { deps } = c.var;
    const user = await requireUserRow(deps, c.req.param('id'));
    // the admin's own sessions are marked as theirs only when they look at themselves
    const current = user._id === c.var.user._id ? c.var.session.sessionId : null;
    return c.json(
      envelope({
        twoFactorEnabled: await hasTwoFactor(deps, user._id),
        sessions: await listSessions(deps, user, current),
      }),
    );
  })
  .delete('/:id/sessions/:sessionId', async (c) => {
    const { deps } = c.var;
    const user = await requireUserRow(deps, c.req.param('id'));
    const ended = await endSessionsByAdmin(deps, c.var.user._id, user, c.req.param('sessionId'));
    return c.json(envelope({ ended }));
  })
  .delete('/:id/sessions', async (c) => {
    const { deps } = c.var;
    const user = await requireUserRow(deps, c.req.param('id'));
    const ended = await endSessionsByAdmin(deps, c.var.user._id, user, null);
    return c.json(envelope({ ended }));
  });
