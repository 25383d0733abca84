import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { AdminUserSummaryDto } from '../../../src-server/contract/admin';
import { PageLoader } from '../../components/page-loader';
import { Pagination } from '../../components/pagination';
import { SendNotificationDialog } from '../../components/send-notification-dialog';
import { useAuth } from '../../lib/auth';
import { adminKeys, fetchUsers } from './admin-review-api';
import { LoadError, RangeText } from './list-parts';
import { readUserList, type UserListState, userListSearch } from './list-queries';
import { useClampPage } from './use-clamp-page';
import { UserDeleteModal } from './user-delete-modal';
import { UserEditModal } from './user-edit-modal';
import { UsersTable } from './users-table';
import { UsersToolbar } from './users-toolbar';

/** /admin/users: search, filter, 10 a page, and the edit, notify and delete actions. */
export function UsersPage() {
  const { t } = useTranslation('adminReview');
  const { user: self } = useAuth();
  const [params, setParams] = useSearchParams();
  const state = readUserList(params);
  const list = useQuery({
    queryKey: adminKeys.users(state),
    queryFn: ({ signal }) => fetchUsers(state, signal),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<AdminUserSummaryDto | null>(null);
  const [deleting, setDeleting] = useState<AdminUserSummaryDto | null>(null);
  const [notify, setNotify] = useState<{ playerId: string } | null>(null);

  const go = useCallback(
    (next: UserListState) => setParams(new URLSearchParams(userListSearch(next)), { replace: true }),
    [setParams],
  );
  // the search applies after a pause: it reads the filters as they are by then
  const latest = useRef(state);
  latest.current = state;
  const onSearch = useCallback((q: string) => go({ ...latest.current, q, page: 1 }), [go]);

  const data = list.data;
  useClampPage(data, state.page, (page) => go({ ...state, page }));
  return (
    <section className="ar-page" aria-labelledby="users-title">
      <header className="page-head">
        <h1 id="users-title">{t('users.title')}</h1>
        <p className="muted">{t('users.subtitle')}</p>
      </header>
      <UsersToolbar
        q={state.q}
        status={state.status}
        onSearch={onSearch}
        onStatus={(status) => go({ ...state, status, page: 1 })}
      />
      {list.isPending ? (
        <PageLoader />
      ) : list.isError && !data ? (
        <LoadError message={t('userLoadError')} onRetry={() => list.refetch()} testId="users-error" />
      ) : data && data.items.length === 0 ? (
        <p className="card ar-empty" data-testid="users-empty">
          {t('users.empty')}
        </p>
      ) : data ? (
        <>
          {list.isError && (
            <LoadError message={t('userLoadError')} onRetry={() => list.refetch()} testId="users-error" />
          )}
          <RangeText
            page={data.page}
            limit={data.limit}
            total={data.total}
            textKey="users.range"
            testId="users-range"
          />
          <div aria-busy={list.isFetching}>
            <UsersTable
              users={data.items}
              selfId={self?._id}
              onEdit={setEditing}
              onNotify={(_u, playerId) => setNotify({ playerId })}
              onDelete={setDeleting}
            />
          </div>
          <Pagination
            page={state.page}
            pages={Math.max(data.pages, 1)}
            onPage={(page) => go({ ...state, page })}
          />
        </>
      ) : null}
      <UserEditModal user={editing} onClose={() => setEditing(null)} />
      <UserDeleteModal user={deleting} onClose={() => setDeleting(null)} />
      <SendNotificationDialog
        open={notify !== null}
        onClose={() => setNotify(null)}
        initialPlayerId={notify?.playerId}
      />
    </section>
  );
}
