import { Hono } from 'hono';
import { envelope } from '../../contract/envelope';
import { userNoteBodySchema } from '../../contract/user-notes';
import { requireAdmin } from '../../http/auth';
import type { AppEnv } from '../../http/env';
import { readJson } from '../../http/validate';
import { addUserNote, listUserNotes } from './user-notes.service';

/** /api/admin/users/{id}/notes: admins' internal notes on an account (append-only, audited). */
export const adminUserNotesRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/:id/notes', async (c) => {
    return c.json(envelope(await listUserNotes(c.var.deps, c.req.param('id'))));
  })
  .post('/:id/notes', async (c) => {
    const { body } = await readJson(c, userNoteBodySchema);
    const data = await addUserNote(c.var.deps, c.var.user._id, c.req.param('id'), body);
    return c.json(envelope(data), 201);
  });
