import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { adminKeys, fetchUserSubmissions, fetchUserWithdrawals } from '../../../components/admin/admin-api';
import { ReviewStatusBadge } from '../../../components/admin/badges';
import { FlagBadge } from '../../../components/admin/flag-badge';
import { columnHeaders, ReviewTable } from '../../../components/admin/review-table';
import { Pagination } from '../../../components/pagination';
import { ProofThumb } from '../../../components/proof-thumb';
import { formatAccountNumber, formatDateTime, formatMoney } from '../../../lib/format';

/** One paged history list of a user: a titled card with a table (or a loading or empty line) and pages. */
function HistorySection<T extends { _id: string }>({
  name,
  title,
  emptyText,
  columns,
  queryKey,
  fetchPage,
  renderRow,
}: {
  /** "submissions" or "withdrawals": names the heading id and the test ids. */
  name: string;
  title: string;
  emptyText: string;
  columns: readonly string[];
  queryKey(page: number): readonly unknown[];
  fetchPage(page: number, signal: AbortSignal): Promise<{ items: T[]; pages: number }>;
  renderRow(item: T, col: (key: string) => string): ReactNode;
}) {
  const { t } = useTranslation('adminLists');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: queryKey(page),
    queryFn: ({ signal }) => fetchPage(page, signal),
    placeholderData: keepPreviousData,
  });
  const col = (key: string) => t(`detail.columns.${key}`);
  const items = list.data?.items ?? [];
  const id = `user-${name}-title`;
  return (
    <section className="card al-history" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {list.isPending ? (
        <p className="muted">{t('common:status.loading')}</p>
      ) : items.length === 0 ? (
        <p className="muted" data-testid={`user-${name}-empty`}>
          {emptyText}
        </p>
      ) : (
        <ReviewTable testId={`user-${name}`} headers={columnHeaders(columns, col)}>
          {items.map((item) => renderRow(item, col))}
        </ReviewTable>
      )}
      <Pagination page={page} pages={list.data?.pages ?? 1} onPage={setPage} />
    </section>
  );
}

/** The user's task submissions: date, task (to its edit page), reward, status. */
export function UserSubmissions({ userId }: { userId: string }) {
  const { t } = useTranslation('adminLists');
  return (
    <HistorySection
      name="submissions"
      title={t('detail.submissions')}
      emptyText={t('detail.noSubmissions')}
      columns={['date', 'task', 'reward', 'status']}
      queryKey={(page) => adminKeys.userSubmissions(userId, page)}
      fetchPage={(page, signal) => fetchUserSubmissions(userId, page, signal)}
      renderRow={(s, col) => (
        <tr key={s._id} data-testid="user-submission-row">
          <td data-label={col('date')}>{formatDateTime(s.createdAt)}</td>
          <td data-label={col('task')} className="al-break">
            <span className="with-thumb">
              <ProofThumb item={s} title={s.task.title} />
              <Link to={paths.adminTaskEdit(s.task._id)}>{s.task.title}</Link>
            </span>
          </td>
          <td data-label={col('reward')} className="al-money">
            {formatMoney(s.reward)}
          </td>
          <td data-label={col('status')}>
            <span className="al-badges">
              <ReviewStatusBadge status={s.status} />
              <FlagBadge flags={s.flags} />
            </span>
          </td>
        </tr>
      )}
    />
  );
}

/** The user's withdrawals with their notes (the rejection reason or the description). */
export function UserWithdrawals({ userId }: { userId: string }) {
  const { t } = useTranslation('adminLists');
  return (
    <HistorySection
      name="withdrawals"
      title={t('detail.withdrawals')}
      emptyText={t('detail.noWithdrawals')}
      columns={['date', 'amount', 'method', 'account', 'status', 'notes']}
      queryKey={(page) => adminKeys.userWithdrawals(userId, page)}
      fetchPage={(page, signal) => fetchUserWithdrawals(userId, page, signal)}
      renderRow={(w, col) => (
        <tr key={w._id} data-testid="user-withdrawal-row">
          <td data-label={col('date')}>{formatDateTime(w.createdAt)}</td>
          <td data-label={col('amount')} className="al-money">
            {formatMoney(w.amount)}
          </td>
          <td data-label={col('method')}>{t(`methods.${w.paymentMethod}`)}</td>
          <td data-label={col('account')}>
            <span className="al-stack">
              <span>{w.accountDetails.fullName}</span>
              <span className="muted small al-account">
                {formatAccountNumber(w.accountDetails.accountNumber)}
              </span>
            </span>
          </td>
          <td data-label={col('status')}>
            <span className="al-badges">
              <ReviewStatusBadge status={w.status} />
              <FlagBadge flags={w.flags} />
            </span>
          </td>
          <td data-label={col('notes')} className="al-break" data-testid="user-withdrawal-notes">
            {w.rejectionReason || w.description || '—'}
          </td>
        </tr>
      )}
    />
  );
}
