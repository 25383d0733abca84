import type { InboxItemDto } from '@contract/inbox';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Pagination } from '../../components/pagination';
import { Skeleton } from '../../components/skeleton';
import { useToast } from '../../components/toast';
import { formatDateTime, formatMoney } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { inboxKeys, markAllRead, markRead, useInboxPage } from './inbox-api';

/** Where a message leads: my tasks by the result, the earnings statement, the task. */
function linkOf(item: InboxItemDto): string | null {
  switch (item.type) {
    case 'isAccepted':
    case 'appealOverturned':
      return paths.myTasksSection('approved');
    case 'isRejected':
    case 'appealUpheld':
      return paths.myTasksSection('rejected');
    case 'acceptedWithdraw':
    case 'rejectedWithdraw':
      return paths.earnings;
    case 'taskClosed':
      return item.ref ? paths.task(item.ref) : null;
    default:
      return null;
  }
}

/** The task (linked), the amount and the reason a message is about, when it has them. */
function InboxContext({ item }: { item: InboxItemDto }) {
  const { t } = useTranslation(['common', 'submissions']);
  const c = item.context;
  if (!c) return null;
  const refund = item.type === 'rejectedWithdraw';
  return (
    <p className="inbox-item-context" data-testid="inbox-item-context">
      {c.taskId && c.taskTitle && (
        <span>
          {t('inbox.task')}: <Link to={paths.task(c.taskId)}>{c.taskTitle}</Link>
        </span>
      )}
      {/* a rejection pays nothing: its amount would only mislead */}
      {c.amount !== null && item.type !== 'isRejected' && item.type !== 'appealUpheld' && (
        <span data-testid="inbox-item-amount">
          {t(refund ? 'inbox.refunded' : 'inbox.amount')}: <strong>{formatMoney(c.amount)}</strong>
        </span>
      )}
      {c.reasonCode && (
        <span>
          {t('offer.reason')}:{' '}
          {t(`submissions:rejectionReasons.${c.reasonCode}`, { defaultValue: c.reasonCode })}
        </span>
      )}
    </p>
  );
}

function InboxItem({
  item,
  unseen,
  onRead,
}: {
  item: InboxItemDto;
  unseen: boolean;
  onRead(id: string): void;
}) {
  const { t } = useTranslation();
  const custom = item.type === 'customMessage';
  const title = custom ? item.title : t(`inbox.types.${item.type}.title`);
  const body = custom ? item.message : t(`inbox.types.${item.type}.body`);
  // the admin's own words (a rejection reason, an appeal's response) under the fixed text
  const note = !custom && item.message ? item.message : null;
  const link = linkOf(item);
  return (
    <li
      className={`inbox-item card${unseen ? ' is-unread' : ''}`}
      data-testid="inbox-item"
      data-type={item.type}
      data-read={item.read ? 'true' : 'false'}
    >
      <div className="inbox-item-head">
        <h2 className="inbox-item-title">
          {unseen && <span className="inbox-dot" aria-hidden="true" />}
          {unseen && <span className="sr-only">{t('inbox.unreadMark')} </span>}
          {title}
        </h2>
        <time className="muted" dateTime={item.createdAt}>
          {formatDateTime(item.createdAt)}
        </time>
      </div>
      <p className="inbox-item-body">{body}</p>
      <InboxContext item={item} />
      {note && (
        <blockquote className="inbox-item-note" data-testid="inbox-item-note">
          {note}
        </blockquote>
      )}
      <div className="inbox-item-actions">
        {link && (
          <Link className="btn btn-ghost btn-sm" to={link} onClick={() => !item.read && onRead(item._id)}>
            {t('inbox.open')}
          </Link>
        )}
      </div>
    </li>
  );
}

/** /notifications: the user's in-app inbox, newest first, with mark as read and mark all read. */
export function InboxPage() {
  const { t } = useTranslation();
  usePageTitle(t('titles.inbox'));
  const toast = useToast();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const list = useInboxPage(page);
  const refresh = () => queryClient.invalidateQueries({ queryKey: inboxKeys.all });
  const readOne = useMutation({
    mutationFn: markRead,
    onSuccess: refresh,
    onError: () => toast.error(t('inbox.markError')),
  });
  const readAll = useMutation({
    mutationFn: markAllRead,
    onSuccess: () => {
      void refresh();
      toast.success(t('inbox.allRead'));
    },
    onError: () => toast.error(t('inbox.markError')),
  });
  const unread = list.data?.unread ?? 0;
  // reading is opening: the unread messages on screen are marked read at once (the bell follows
  // now, not at its next poll), and keep their "new" mark for this visit
  const [seenNew, setSeenNew] = useState<ReadonlySet<string>>(new Set());
  const marking = useRef(new Set<string>());
  useEffect(() => {
    const fresh = (list.data?.items ?? []).filter((i) => !i.read && !marking.current.has(i._id));
    if (fresh.length === 0) return;
    for (const i of fresh) marking.current.add(i._id);
    setSeenNew((old) => new Set([...old, ...fresh.map((i) => i._id)]));
    queryClient.setQueryData<{ unread: number }>(inboxKeys.unread, (old) =>
      old ? { unread: Math.max(0, old.unread - fresh.length) } : old,
    );
    void Promise.allSettled(fresh.map((i) => markRead(i._id))).then(() =>
      queryClient.invalidateQueries({ queryKey: inboxKeys.all }),
    );
  }, [list.data, queryClient]);

  return (
    <section className="container section inbox-page">
      <header className="page-head inbox-head">
        <div>
          <h1>{t('inbox.title')}</h1>
          <p className="muted" data-testid="inbox-summary">
            {list.data ? t('inbox.summary', { count: unread }) : t('inbox.subtitle')}
          </p>
        </div>
        {unread > 0 && (
          <button
            type="button"
            className="btn btn-outline"
            data-testid="inbox-read-all"
            disabled={readAll.isPending}
            onClick={() => readAll.mutate()}
          >
            {t('inbox.markAllRead')}
          </button>
        )}
      </header>
      {list.isPending ? (
        <Skeleton layout="cards" />
      ) : list.isError ? (
        <div className="card state-card" role="alert" data-testid="inbox-error">
          <p className="notice notice-error">{t('inbox.loadError')}</p>
          <button type="button" className="btn btn-primary" onClick={() => list.refetch()}>
            {t('actions.retry')}
          </button>
        </div>
      ) : list.data.items.length === 0 ? (
        <div className="card state-card" data-testid="inbox-empty">
          <p>{t('inbox.empty')}</p>
          <Link className="btn btn-primary" to={paths.tasks}>
            {t('nav.tasks')}
          </Link>
        </div>
      ) : (
        <>
          <ul className="inbox-list">
            {list.data.items.map((item) => (
              <InboxItem
                key={item._id}
                item={item}
                unseen={!item.read || seenNew.has(item._id)}
                onRead={(id) => readOne.mutate(id)}
              />
            ))}
          </ul>
          <Pagination
            page={list.data.page}
            pages={list.data.pages}
            onPage={(p) => setParams(p === 1 ? {} : { page: String(p) })}
          />
        </>
      )}
    </section>
  );
}
