import type { WithdrawalDto } from '@contract/withdrawals';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { FlagBadge } from '../../../components/admin/flag-badge';
import {
  ApproveWithdrawalModal,
  RejectWithdrawalModal,
  useApproveWithdrawal,
} from '../../../components/admin/withdrawal-decisions';
import { useIsSelf } from '../../../lib/auth';
import { formatAccountNumber, formatDateTime, formatMoney } from '../../../lib/format';

/** Up to 5 newest pending withdrawals, approved or rejected right here. */
export function PendingWithdrawals({ items, total }: { items: WithdrawalDto[]; total: number }) {
  const { t } = useTranslation('admin');
  const [rejecting, setRejecting] = useState<WithdrawalDto | null>(null);
  // approving pays real money: asked first, like the reject asks for a reason
  const [approving, setApproving] = useState<WithdrawalDto | null>(null);
  const approve = useApproveWithdrawal(() => setApproving(null));
  const busy = approve.isPending;
  const isSelf = useIsSelf();

  return (
    <section className="card admin-panel" aria-labelledby="pending-withdrawals-title">
      <div className="admin-panel-head">
        <h2 id="pending-withdrawals-title">
          {t('dashboard.withdrawals.title')}{' '}
          {total > 0 && <span className="badge badge-pending">{total}</span>}
        </h2>
        <Link to={paths.adminWithdrawals}>{t('dashboard.withdrawals.viewAll')}</Link>
      </div>
      {items.length === 0 ? (
        <p className="muted" data-testid="no-pending-withdrawals">
          {t('dashboard.withdrawals.empty')}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table table-stack" data-testid="pending-withdrawals">
            <thead>
              <tr>
                <th scope="col">{t('dashboard.withdrawals.date')}</th>
                <th scope="col">{t('dashboard.withdrawals.user')}</th>
                <th scope="col">{t('dashboard.withdrawals.amount')}</th>
                <th scope="col">{t('dashboard.withdrawals.account')}</th>
                <th scope="col">{t('dashboard.withdrawals.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((w) => (
                <tr key={w._id}>
                  <td className="nowrap" data-label={t('dashboard.withdrawals.date')}>
                    {formatDateTime(w.createdAt)}
                  </td>
                  <td data-label={t('dashboard.withdrawals.user')}>
                    <div className="al-stack flag-cell">
                      <Link to={paths.adminUser(w.user._id)}>{w.user.name}</Link>
                      <FlagBadge flags={w.flags} />
                    </div>
                  </td>
                  <td className="nowrap strong" data-label={t('dashboard.withdrawals.amount')}>
                    {formatMoney(w.amount)}
                  </td>
                  <td data-label={t('dashboard.withdrawals.account')}>
                    <div>
                      <span className="badge">{t(`methods.${w.paymentMethod}`)}</span>
                      <div>{w.accountDetails.fullName}</div>
                      <div className="muted small mono">
                        {formatAccountNumber(w.accountDetails.accountNumber)}
                      </div>
                    </div>
                  </td>
                  <td className="cell-actions">
                    {isSelf(w.user._id) ? (
                      <span className="muted small" data-testid="own-item">
                        {t('dashboard.withdrawals.ownItem')}
                      </span>
                    ) : (
                      <div className="row-actions">
                        <button
                          type="button"
                          className="btn btn-success btn-sm"
                          disabled={busy}
                          onClick={() => setApproving(w)}
                        >
                          {t('dashboard.withdrawals.approve')}
                        </button>
                        <button
                          type="button"
                          className="btn btn-danger btn-sm"
                          disabled={busy}
                          onClick={() => setRejecting(w)}
                        >
                          {t('dashboard.withdrawals.reject')}
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ApproveWithdrawalModal item={approving} approve={approve} onClose={() => setApproving(null)} />
      <RejectWithdrawalModal item={rejecting} onClose={() => setRejecting(null)} />
    </section>
  );
}
