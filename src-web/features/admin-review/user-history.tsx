import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { Pagination } from '../../components/pagination';
import { formatDateTime, formatMoney } from '../../lib/format';
import { adminKeys, fetchUserSubmissions, fetchUserWithdrawals } from './admin-review-api';
import { ReviewStatusBadge } from './badges';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card ar-history" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** The user's task submissions: date, task (to its edit page), reward, status. */
export function UserSubmissions({ userId }: { userId: string }) {
  const { t } = useTranslation('adminReview');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: adminKeys.userSubmissions(userId, page),
    queryFn: ({ signal }) => fetchUserSubmissions(userId, page, signal),
    placeholderData: keepPreviousData,
  });
  const col = (key: string) => t(`detail.columns.${key}`);
  const items = list.data?.items ?? [];
  return (
    <Section id="user-submissions-title" title={t('detail.submissions')}>
      {list.isPending ? (
        <p className="muted">{t('common:status.loading')}</p>
      ) : items.length === 0 ? (
        <p className="muted" data-testid="user-submissions-empty">
          {t('detail.noSubmissions')}
        </p>
      ) : (
        <div className="table-wrap ar-table-wrap">
          <table className="table ar-table" data-testid="user-submissions">
            <thead>
              <tr>
                {['date', 'task', 'reward', 'status'].map((k) => (
                  <th key={k} scope="col">
                    {col(k)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <tr key={s._id} data-testid="user-submission-row">
                  <td data-label={col('date')}>{formatDateTime(s.createdAt)}</td>
                  <td data-label={col('task')} className="ar-break">
                    <Link to={paths.adminTaskEdit(s.task._id)}>{s.task.title}</Link>
                  </td>
                  <td data-label={col('reward')} className="ar-money">
                    {formatMoney(s.reward)}
                  </td>
                  <td data-label={col('status')}>
                    <ReviewStatusBadge status={s.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pages={list.data?.pages ?? 1} onPage={setPage} />
    </Section>
  );
}

/** The user's withdrawals with their notes (the rejection reason or the description). */
export function UserWithdrawals({ userId }: { userId: string }) {
  const { t } = useTranslation('adminReview');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: adminKeys.userWithdrawals(userId, page),
    queryFn: ({ signal }) => fetchUserWithdrawals(userId, page, signal),
    placeholderData: keepPreviousData,
  });
  const col = (key: string) => t(`detail.columns.${key}`);
  const items = list.data?.items ?? [];
  return (
    <Section id="user-withdrawals-title" title={t('detail.withdrawals')}>
      {list.isPending ? (
        <p className="muted">{t('common:status.loading')}</p>
      ) : items.length === 0 ? (
        <p className="muted" data-testid="user-withdrawals-empty">
          {t('detail.noWithdrawals')}
        </p>
      ) : (
        <div className="table-wrap ar-table-wrap">
          <table className="table ar-table" data-testid="user-withdrawals">
            <thead>
              <tr>
                {['date', 'amount', 'method', 'account', 'status', 'notes'].map((k) => (
                  <th key={k} scope="col">
                    {col(k)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((w) => (
                <tr key={w._id} data-testid="user-withdrawal-row">
                  <td data-label={col('date')}>{formatDateTime(w.createdAt)}</td>
                  <td data-label={col('amount')} className="ar-money">
                    {formatMoney(w.amount)}
                  </td>
                  <td data-label={col('method')}>{t(`methods.${w.paymentMethod}`)}</td>
                  <td data-label={col('account')}>
                    <span className="ar-stack">
                      <span>{w.accountDetails.fullName}</span>
                      <span className="muted small ar-break">{w.accountDetails.accountNumber}</span>
                    </span>
                  </td>
                  <td data-label={col('status')}>
                    <ReviewStatusBadge status={w.status} />
                  </td>
                  <td data-label={col('notes')} className="ar-break" data-testid="user-withdrawal-notes">
                    {w.rejectionReason || w.description || '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pages={list.data?.pages ?? 1} onPage={setPage} />
    </Section>
  );
}
