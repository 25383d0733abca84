import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { WithdrawalDto } from '../../../../src-server/contract/withdrawals';
import { paths } from '../../../app/paths';
import { actionError } from '../../../components/admin/action-error';
import { FlagBadge } from '../../../components/admin/flag-badge';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useToast } from '../../../components/toast';
import { useIsSelf } from '../../../lib/auth';
import { formatAccountNumber, formatDateTime, formatMoney } from '../../../lib/format';
import { useSettleWithdrawal } from './dashboard-api';
import { RejectWithdrawalModal } from './reject-withdrawal-modal';

/** Up to 5 newest pending withdrawals, approved or rejected right here. */
export function PendingWithdrawals({ items, total }: { items: WithdrawalDto[]; total: number }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const { approve, reject } = useSettleWithdrawal();
  const [rejecting, setRejecting] = useState<WithdrawalDto | null>(null);
  // approving pays real money: asked first, like the reject asks for a reason
  const [approving, setApproving] = useState<WithdrawalDto | null>(null);
  const busy = approve.isPending || reject.isPending;
  const isSelf = useIsSelf();

  const onApprove = (w: WithdrawalDto) =>
    approve.mutate(w._id, {
      onSuccess: () => {
        setApproving(null);
        toast.success(t('dashboard.approvalSuccess'));
      },
      onError: (err) => toast.error(actionError(t, err, 'admin:dashboard.approvalProcessError')),
    });
  const onReject = (reason: string) => {
    if (!rejecting) return;
    reject.mutate(
      { id: rejecting._id, reason },
      {
        onSuccess: () => {
          setRejecting(null);
          toast.success(t('dashboard.rejectionSuccess'));
        },
        onError: (err) => toast.error(actionError(t, err, 'admin:dashboard.rejectionProcessError')),
      },
    );
  };

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
                    <div className="ar-stack flag-cell">
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
      <ConfirmModal
        open={approving !== null}
        title={t('dashboard.approve.title')}
        confirmLabel={t('dashboard.approve.confirm')}
        confirmTestId="confirm-approve"
        pending={approve.isPending}
        tone="success"
        onClose={() => setApproving(null)}
        onConfirm={() => approving && onApprove(approving)}
      >
        {approving && (
          <p data-testid="approve-summary">
            {t('dashboard.approve.text', {
              amount: formatMoney(approving.amount),
              name: approving.accountDetails.fullName,
              method: t(`methods.${approving.paymentMethod}`),
              account: formatAccountNumber(approving.accountDetails.accountNumber),
            })}
          </p>
        )}
      </ConfirmModal>
      <RejectWithdrawalModal
        withdrawal={rejecting}
        pending={reject.isPending}
        onClose={() => setRejecting(null)}
        onReject={onReject}
      />
    </section>
  );
}
