import type { AdminUserSummaryDto } from '@contract/admin';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { UserStatusBadge } from '../../../components/admin/badges';
import { columnHeaders, ReviewTable } from '../../../components/admin/review-table';
import { Avatar } from '../../../components/avatar';
import { EmailText } from '../../../components/email-text';
import { formatDate, formatMoney } from '../../../lib/format';
import { pushIdOf } from './push-id';

const COLUMNS = ['user', 'email', 'registered', 'status', 'role', 'balance', 'actions'] as const;

/** The user list: a table on wide screens, one card per user on phones. */
export function UsersTable({
  users,
  selfId,
  onEdit,
  onNotify,
  onDelete,
}: {
  users: readonly AdminUserSummaryDto[];
  selfId: string | undefined;
  onEdit(user: AdminUserSummaryDto): void;
  onNotify(user: AdminUserSummaryDto, pushId: string): void;
  onDelete(user: AdminUserSummaryDto): void;
}) {
  const { t } = useTranslation('adminLists');
  const label = (key: (typeof COLUMNS)[number]) => t(`users.columns.${key}`);
  return (
    <ReviewTable className="al-users-table" headers={columnHeaders(COLUMNS, label)}>
      {users.map((u) => {
        const pushId = pushIdOf(u);
        return (
          <tr key={u._id} data-testid="user-row" data-user-id={u._id}>
            <td className="al-cell-head">
              <Link to={paths.adminUser(u._id)} className="al-user-link">
                <Avatar name={u.name} image={u.profileImage} size={32} />
                <span className="al-user-name">{u.name}</span>
              </Link>
              {u._id === selfId && <span className="muted small"> {t('users.you')}</span>}
            </td>
            <td data-label={label('email')} className="al-break">
              <EmailText email={u.email} />
            </td>
            <td data-label={label('registered')}>{formatDate(u.createdAt)}</td>
            <td data-label={label('status')}>
              <UserStatusBadge status={u.status} />
            </td>
            <td data-label={label('role')}>
              <span className={u.role === 'admin' ? 'badge' : 'badge badge-muted'} data-testid="user-role">
                {t(`roles.${u.role}`)}
              </span>
            </td>
            <td data-label={label('balance')} className="al-money" data-testid="user-balance">
              {formatMoney(u.balance)}
            </td>
            <td data-label={label('actions')}>
              <div className="al-actions">
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  onClick={() => onEdit(u)}
                  aria-label={t('users.editUser', { name: u.name })}
                  data-testid="user-edit"
                >
                  {t('users.edit')}
                </button>
                {pushId && (
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    onClick={() => onNotify(u, pushId)}
                    aria-label={t('users.notifyUser', { name: u.name })}
                    data-testid="user-notify"
                  >
                    {t('users.notify')}
                  </button>
                )}
                {u._id !== selfId && (
                  <button
                    type="button"
                    className="btn btn-outline btn-sm al-danger"
                    onClick={() => onDelete(u)}
                    aria-label={t('users.deleteUser', { name: u.name })}
                    data-testid="user-delete"
                  >
                    {t('users.delete')}
                  </button>
                )}
              </div>
            </td>
          </tr>
        );
      })}
    </ReviewTable>
  );
}
