import type { AdminUserSummaryDto } from '@contract/admin';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, fetchUsers } from '../../../components/admin/admin-api';
import { ExportButtons } from '../../../components/admin/export-button';
import { ListBody } from '../../../components/admin/list-body';
import { ListPageHead, RangeText } from '../../../components/admin/list-parts';
import {
  readUserList,
  type UserListState,
  userListApiQuery,
  userListSearch,
} from '../../../components/admin/list-queries';
import { useListPage } from '../../../components/admin/use-list-page';
import { SendNotificationDialog } from '../../../components/send-notification-dialog';
import { useAuth } from '../../../lib/auth';
import { usePageTitle } from '../../../lib/page-title';
import { UserDeleteModal } from './user-delete-modal';
import { UserEditModal } from './user-edit-modal';
import { UsersTable } from './users-table';
import { UsersToolbar } from './users-toolbar';

/** /admin/users: search, filter, 10 a page, and the edit, notify and delete actions. */
export function UsersPage() {
  const { t } = useTranslation('adminLists');
  usePageTitle(t('common:titles.users'));
  const { user: self } = useAuth();
  const { state, list, patch } = useListPage<UserListState, Awaited<ReturnType<typeof fetchUsers>>>({
    read: readUserList,
    search: userListSearch,
    queryKey: adminKeys.users,
    fetchList: fetchUsers,
  });
  const [editing, setEditing] = useState<AdminUserSummaryDto | null>(null);
  const [deleting, setDeleting] = useState<AdminUserSummaryDto | null>(null);
  const [notify, setNotify] = useState<{ playerId: string } | null>(null);

  // the search applies after a pause: patch builds on the filters as they are by then
  const onSearch = useCallback((q: string) => patch({ q, page: 1 }), [patch]);
  return (
    <section className="al-page" aria-labelledby="users-title">
      <ListPageHead
        id="users-title"
        title={t('users.title')}
        subtitle={t('users.subtitle')}
        actions={<ExportButtons kind="users" apiQuery={userListApiQuery(state)} />}
      />
      <UsersToolbar
        q={state.q}
        status={state.status}
        onSearch={onSearch}
        onStatus={(status) => patch({ status, page: 1 })}
      />
      <ListBody
        list={list}
        errorText={t('userLoadError')}
        errorTestId="users-error"
        empty={
          <p className="card al-empty" data-testid="users-empty">
            {t('users.empty')}
          </p>
        }
        page={state.page}
        onPage={(page) => patch({ page })}
      >
        {(data) => (
          <>
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
          </>
        )}
      </ListBody>
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
