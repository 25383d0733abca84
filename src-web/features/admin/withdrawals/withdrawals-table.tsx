import type { WithdrawalDto } from '@contract/withdrawals';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { ReviewStatusBadge } from '../../../components/admin/badges';
import {
  SelectCell,
  type Selection,
  SelectPage,
  useSelectColumn,
} from '../../../components/admin/bulk-review';
import { FlagBadge } from '../../../components/admin/flag-badge';
import { columnHeaders, ReviewTable } from '../../../components/admin/review-table';
import { useIsSelf } from '../../../lib/auth';
import { formatAccountNumber, formatDateTime, formatMoney } from '../../../lib/format';

const COLUMNS = ['date', 'user', 'amount', 'method', 'account', 'status', 'description', 'actions'] as const;

/**
 * Every withdrawal of the page; approve, reject and a tick box for the payout run only on pending
 * ones; a flag badge on one with an open fraud signal, opening its signals.
 */
export function WithdrawalsTable({
  items,
  busyId,
  selection,
  onApprove,
  onReject,
  onFlags,
}: {
  items: readonly WithdrawalDto[];
  busyId: string | null;
  selection: Selection;
  onApprove(w: WithdrawalDto): void;
  onReject(w: WithdrawalDto): void;
  /** show the withdrawal's fraud signals (its flag badge) */
  onFlags(w: WithdrawalDto): void;
}) {
  const { t } = useTranslation('adminLists');
  const isSelf = useIsSelf();
  const label = (key: (typeof COLUMNS)[number]) => t(`withdrawals.columns.${key}`);
  const decidable = (w: WithdrawalDto) => w.status === 'pending' && !isSelf(w.user._id);
  const select = useSelectColumn();
  const selectable = items.filter(decidable).map((x) => x._id);
  return (
    <>
      <SelectPage selectable={selectable} selection={selection} label={t('withdrawals.selectPage')} />
      <ReviewTable
        className="al-withdrawals-table"
        headers={[select.header, ...columnHeaders(COLUMNS, label)]}
        headerCell={select.headerCell}
      >
        {items.map((w) => {
          const amount = formatMoney(w.amount);
          return (
            <tr key={w._id} data-testid="withdrawal-row" data-status={w.status}>
              <SelectCell
                id={w._id}
                show={decidable(w)}
                label={t('withdrawals.selectItem', { amount, name: w.user.name })}
                selection={selection}
              />
              <td className="al-cell-head">{formatDateTime(w.createdAt)}</td>
              <td data-label={label('user')} className="al-break">
                <Link to={paths.adminUser(w.user._id)}>{w.user.name}</Link>
              </td>
              <td data-label={label('amount')} className="al-money" data-testid="withdrawal-amount">
                {amount}
              </td>
              <td data-label={label('method')}>{t(`methods.${w.paymentMethod}`)}</td>
              <td data-label={label('account')}>
                <span className="al-stack">
                  <span className="al-break">{w.accountDetails.fullName}</span>
                  <span className="muted small al-mono al-account">
                    {formatAccountNumber(w.accountDetails.accountNumber)}
                  </span>
                </span>
              </td>
              <td data-label={label('status')}>
                <span className="al-badges">
                  <ReviewStatusBadge status={w.status} />
                  <FlagBadge flags={w.flags} onOpen={() => onFlags(w)} />
                </span>
              </td>
              <td data-label={label('description')} className="al-break" data-testid="withdrawal-note">
                {w.rejectionReason || w.description || '—'}
              </td>
              <td
                data-label={label('actions')}
                className={w.status === 'pending' ? undefined : 'al-hide-phone'}
              >
                {w.status === 'pending' && isSelf(w.user._id) ? (
                  <span className="muted small" data-testid="own-item">
                    {t('ownItem')}
                  </span>
                ) : w.status === 'pending' ? (
                  <div className="al-actions">
                    <button
                      type="button"
                      className="btn btn-success btn-sm"
                      disabled={busyId === w._id}
                      onClick={() => onApprove(w)}
                      aria-label={t('withdrawals.approveItem', { amount, name: w.user.name })}
                      data-testid="withdrawal-approve"
                    >
                      {t('withdrawals.approve')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-danger btn-sm"
                      disabled={busyId === w._id}
                      onClick={() => onReject(w)}
                      aria-label={t('withdrawals.rejectItem', { amount, name: w.user.name })}
                      data-testid="withdrawal-reject"
                    >
                      {t('withdrawals.reject')}
                    </button>
                  </div>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          );
        })}
      </ReviewTable>
    </>
  );
}
