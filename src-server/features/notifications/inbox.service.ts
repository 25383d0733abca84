import type { InboxContextDto, InboxItemDto, InboxPageDto, InboxType } from '../../contract/inbox';
import { kurusToTl } from '../../contract/money';
import { nowIso } from '../../db/ids';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import {
  countUnread,
  markAllRead,
  markRead,
  pageMessages,
  type Reader,
  submissionContexts,
  taskTitles,
  withdrawalContexts,
} from './inbox.repository';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** What each fixed type's `ref` names. */
const REF_KIND: Partial<Record<InboxType, 'submission' | 'withdrawal' | 'task'>> = {
  isAccepted: 'submission',
  isRejected: 'submission',
  appealOverturned: 'submission',
  appealUpheld: 'submission',
  acceptedWithdraw: 'withdrawal',
  rejectedWithdraw: 'withdrawal',
  taskClosed: 'task',
};

/** The task, amount and reason of each message on the page, in three queries whatever its size. */
async function contexts(
  deps: Deps,
  reader: Reader,
  rows: readonly { type: InboxType; ref: string | null }[],
): Promise<Map<string, InboxContextDto>> {
  const refs = (kind: 'submission' | 'withdrawal' | 'task') => [
    ...new Set(rows.filter((r) => r.ref && REF_KIND[r.type] === kind).map((r) => r.ref as string)),
  ];
  const [subs, payouts, tasks] = await Promise.all([
    submissionContexts(deps.db, reader._id, refs('submission')),
    withdrawalContexts(deps.db, reader._id, refs('withdrawal')),
    taskTitles(deps.db, refs('task')),
  ]);
  const out = new Map<string, InboxContextDto>();
  for (const s of subs) {
    out.set(`submission:${s._id}`, {
      taskId: s.task_id,
      taskTitle: s.title,
      amount: kurusToTl(s.reward),
      reasonCode: s.rejection_reason,
    });
  }
  for (const w of payouts) {
    out.set(`withdrawal:${w._id}`, {
      taskId: null,
      taskTitle: null,
      amount: kurusToTl(w.amount),
      reasonCode: null,
    });
  }
  for (const t of tasks) {
    out.set(`task:${t._id}`, { taskId: t._id, taskTitle: t.title, amount: null, reasonCode: null });
  }
  return out;
}

/** GET /api/notifications: the reader's messages, newest first, with the unread count. */
export async function listInbox(
  deps: Deps,
  reader: Reader,
  query: { page: number; limit: number },
): Promise<InboxPageDto> {
  const { rows, total, unread } = await pageMessages(deps.db, reader, query.page, query.limit);
  const about = await contexts(deps, reader, rows);
  const items: InboxItemDto[] = rows.map((r) => ({
    _id: r._id,
    type: r.type,
    title: r.title,
    message: r.message,
    ref: r.ref,
    createdAt: r.created_at,
    read: Boolean(r.read),
    context: (r.ref && REF_KIND[r.type] && about.get(`${REF_KIND[r.type]}:${r.ref}`)) || null,
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
