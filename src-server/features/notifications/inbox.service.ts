import type { InboxItemDto, InboxPageDto } from '../../contract/inbox';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../http/app-error';
import { countUnread, markAllRead, markRead, pageMessages, type Reader } from './inbox.repository';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** GET /api/notifications: the reader's messages, newest first, with the unread count. */
export async function listInbox(
  deps: Deps,
  reader: Reader,
  query: { page: number; limit: number },
): Promise<InboxPageDto> {
  const { rows, total, unread } = await pageMessages(deps.db, reader, query.page, query.limit);
  const items: InboxItemDto[] = rows.map((r) => ({
    _id: r._id,
    type: r.type,
    title: r.title,
    message: r.message,
    ref: r.ref,
    createdAt: r.created_at,
    read: Boolean(r.read),
  }));
  return {
    items,
    total,
    unread,
    page: query.page,
    limit: query.limit,
    pages: Math.max(1, Math.ceil(total / query.limit)),
  };
}

export async function unreadCount(deps: Deps, reader: Reader): Promise<{ unread: number }> {
  return { unread: await countUnread(deps.db, reader) };
}

/** PUT /api/notifications/{id}/read: 404 for a message the reader cannot see (someone else's). */
export async function readOne(deps: Deps, reader: Reader, id: string): Promise<{ _id: string; read: true }> {
  if (!(await markRead(deps.db, reader, id, nowIso(deps.clock))))
    throw fail.notFound('notification_not_found');
  return { _id: id, read: true };
}

/** PUT /api/notifications/read-all: every message the reader can see, read. */
export async function readAll(deps: Deps, reader: Reader): Promise<{ updated: number }> {
  return { updated: await markAllRead(deps.db, reader, nowIso(deps.clock)) };
}
