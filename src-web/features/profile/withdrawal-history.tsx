import { PAGE_SIZES } from '@contract/constants';
import type { WithdrawalDto } from '@contract/withdrawals';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pagination } from '../../components/pagination';
import { formatDateTime, formatMoney } from '../../lib/format';

const PAGE_SIZE = PAGE_SIZES.profileWithdrawals;

/** The server masks all but the last 4 characters; a long IBAN's row of stars is shortened for the eye. */
function shortMask(accountNumber: string): string {
  return accountNumber.replace(/^\*{2,}/, '•••• ');
}

/** The user's withdrawals, 5 a page: date, amount, method, account, status (with the rejection reason). */
export function WithdrawalHistory({
  withdrawals,
  loading,
  failed,
  onRetry,
}: {
  withdrawals: readonly WithdrawalDto[];
  loading: boolean;
  failed: boolean;
  onRetry(): void;
}) {
  const { t } = useTranslation(['profile', 'common']);
  const [wanted, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(withdrawals.length / PAGE_SIZE));
  const page = Math.min(wanted, pages);
  const rows = withdrawals.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const head = ['date', 'amount', 'method', 'account', 'status'] as const;

  let body: React.ReactNode;
  if (failed) {
    body = (
      <div className="notice notice-error row-between" role="alert">
        <span>{t('history.loadError')}</span>
        <button type="button" className="btn btn-outline btn-sm" onClick={onRetry}>
          {t('common:actions.retry')}
        </button>
      </div>
    );
  } else if (loading) body = <p className="muted">{t('common:status.loading')}</p>;
  else if (withdrawals.length === 0) body = <p className="muted">{t('history.empty')}</p>;
  else {
    body = (
      <>
        <div className="table-wrap">
          <table className="table withdrawal-table">
            <thead>
              <tr>
                {head.map((key) => (
                  <th key={key} scope="col">
                    {t(`history.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((w) => (
                <tr key={w._id} data-testid="withdrawal-row">
                  <td data-label={t('history.date')}>{formatDateTime(w.createdAt)}</td>
                  <td data-label={t('history.amount')} className="money">
                    {formatMoney(w.amount)}
                  </td>
                  <td data-label={t('history.method')}>{t(`methods.${w.paymentMethod}`)}</td>
                  <td data-label={t('history.account')}>
                    <span className="account-name">{w.accountDetails.fullName}</span>
                    <span className="account-number muted">{shortMask(w.accountDetails.accountNumber)}</span>
                  </td>
                  <td data-label={t('history.status')}>
                    <span className={`badge badge-${w.status}`}>{t(`withdrawalStatus.${w.status}`)}</span>
                    {w.status === 'rejected' && w.rejectionReason && (
                      <span className="rejection-reason" data-testid="rejection-reason">
                        {t('history.reason', { reason: w.rejectionReason })}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pagination page={page} pages={pages} onPage={setPage} />
      </>
    );
  }

  return (
    <section className="card profile-history" aria-labelledby="profile-history-title">
      <h2 id="profile-history-title">{t('history.title')}</h2>
      {body}
    </section>
  );
}
