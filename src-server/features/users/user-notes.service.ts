import { NOTES_PER_USER_MAX, type UserNoteDto } from '../../contract/user-notes';
import { newId, nowIso } from '../../db/ids';
import { lockForTransaction } from '../../db/locks';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import { recordAudit } from '../audit/audit.repository';
import { requireUserRow } from './admin-users.service';
import { countNotesOf, insertNote, notesOf } from './user-notes.repository';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

const live = async (deps: Deps, id: string) => {
  const user = await requireUserRow(deps, id);
  // a deleted account's notes were erased with it, and none are added afterwards
  if (user.deleted_at !== null) throw fail.notFound('user_not_found');
  return user;
};

/** GET /api/admin/users/{id}/notes: newest first. */
export async function listUserNotes(deps: Deps, userId: string): Promise<UserNoteDto[]> {
  await live(deps, userId);
  const rows = await notesOf(deps.db, userId);
  return rows.map((r) => ({
    _id: r._id,
    body: r.body,
    createdAt: r.created_at,
    author: { _id: r.author_id, name: r.author_name },
  }));
}

/**
 * POST /api/admin/users/{id}/notes: the note and its audit row in one transaction. The cap is
 * counted under a lock of the account's notes, so notes sent at once cannot pass it together.
 */
export async function addUserNote(
  deps: Deps,
  authorId: string,
  userId: string,
  body: string,
): Promise<UserNoteDto> {
  await live(deps, userId);
  const _id = newId();
  const at = nowIso(deps.clock);
  await deps.db.transaction().execute(async (tx) => {
    await lockForTransaction(tx, `notes:${userId}`);
    if ((await countNotesOf(tx, userId)) >= NOTES_PER_USER_MAX) throw fail.conflict('note_limit');
    await insertNote(tx, { _id, userId, authorId, body, at });
    await recordAudit(tx, {
      actorId: authorId,
      action: 'user.note',
      targetType: 'user',
      targetId: userId,
      // the length, not the text: the note goes with the account's deletion, the log never does
      changes: { length: body.length },
      at,
    });
  });
  const mine = (await notesOf(deps.db, userId)).find((n) => n._id === _id);
  return {
    _id,
    body,
    createdAt: at,
    author: { _id: authorId, name: mine?.author_name ?? null },
  };
}
