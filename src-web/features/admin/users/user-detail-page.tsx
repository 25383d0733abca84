import type { AdminUserDetailDto } from '@contract/admin';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { adminKeys, fetchUser } from '../../../components/admin/admin-api';
import { UserStatusBadge } from '../../../components/admin/badges';
import { LoadError } from '../../../components/admin/list-parts';
import { Avatar } from '../../../components/avatar';
import { Skeleton } from '../../../components/skeleton';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { formatDate, formatDateTime, formatMoney } from '../../../lib/format';
import { usePageTitle } from '../../../lib/page-title';
import { LinkedAccounts } from './linked-accounts';
import { UserDetailForm } from './user-detail-form';
import { UserSubmissions, UserWithdrawals } from './user-history';
import { UserNotes } from './user-notes';
import { UserSecurity } from './user-security';

const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** /admin/users/:id: the account, its edit form, its linked accounts, its submissions and its withdrawals. */
export function UserDetailPage() {
  const { t } = useTranslation('adminLists');
  const { id = '' } = useParams();
  const { user: me } = useAuth();
  const [editing, setEditing] = useState(false);
  const user = useQuery({
    queryKey: adminKeys.user(id),
    queryFn: ({ signal }) => fetchUser(id, signal),
    retry: (count, err) => !isNotFound(err) && count < 1,
  });
  usePageTitle(user.data?.name ?? t('common:titles.user'));

  const back = (
    <Link to={paths.adminUsers} className="back-link">
      ← {t('detail.back')}
    </Link>
  );
  if (user.isPending) return <Skeleton layout="page" />;
  if (user.isError) {
    return (
      <section className="al-page">
        {back}
        {isNotFound(user.error) ? (
          <p className="card al-empty" role="alert" data-testid="user-not-found">
            {t('userDetailUserNotFound')}
          </p>
        ) : (
          <LoadError
            message={t('userDetailUserLoadError')}
            onRetry={() => user.refetch()}
            testId="user-load-error"
          />
        )}
      </section>
    );
  }
  const u = user.data;
  return (
    <section className="al-page" aria-labelledby="user-detail-title">
      {back}
      <header className="al-detail-head">
        <Avatar name={u.name} image={u.profileImage} size={56} />
        <div className="al-detail-title">
          <h1 id="user-detail-title" data-testid="user-detail-name">
            {u.name}
          </h1>
          <div className="al-badges">
            <UserStatusBadge status={u.status} />
            {u.role === 'admin' && (
              <span className="badge" data-testid="admin-badge">
                {t('detail.admin')}
              </span>
            )}
          </div>
        </div>
        <button
          type="button"
          className="btn btn-outline"
          aria-expanded={editing}
          onClick={() => setEditing((e) => !e)}
          data-testid="user-detail-edit"
        >
          {editing ? t('detail.cancelEdit') : t('detail.edit')}
        </button>
        <Link
          className="btn btn-ghost"
          to={paths.adminSubmissionsOf({ user: u._id })}
          data-testid="user-proofs-link"
        >
          {t('submissions.ofUser')}
        </Link>
        <Link className="btn btn-ghost" to={paths.adminUserAudit(u._id)} data-testid="user-audit-link">
          {t('audit.userLink')}
        </Link>
      </header>
      {editing ? (
        <UserDetailForm key={u.updatedAt} user={u} onDone={() => setEditing(false)} />
      ) : (
        <InfoCard user={u} />
      )}
      <UserNotes userId={u._id} />
      <UserSecurity userId={u._id} self={u._id === me?._id} />
      <LinkedAccounts userId={u._id} />
      <UserSubmissions userId={u._id} />
      <UserWithdrawals userId={u._id} />
    </section>
  );
}

function InfoCard({ user: u }: { user: AdminUserDetailDto }) {
  const { t } = useTranslation('adminLists');
  const rows: [string, string, string][] = [
    ['name', t('detail.name'), u.name],
    ['email', t('detail.email'), u.email],
    ['balance', t('detail.balance'), formatMoney(u.balance)],
    ['totalEarned', t('detail.totalEarned'), formatMoney(u.totalEarned)],
    ['registered', t('detail.registered'), formatDate(u.createdAt)],
    ['lastActive', t('detail.lastActive'), u.lastActive ? formatDateTime(u.lastActive) : t('detail.never')],
  ];
  if (u.status === 'banned' && u.banReason) rows.push(['banReason', t('detail.banReason'), u.banReason]);
  return (
    <section className="card" aria-labelledby="user-info-title">
      <h2 id="user-info-title">{t('detail.info')}</h2>
      <dl className="al-info">
        {rows.map(([key, label, value]) => (
          <div key={key} data-testid={`info-${key}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
