import type { WithdrawalDto } from '@contract/withdrawals';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { FlagList } from '../../../components/admin/flag-list';
import { Modal } from '../../../components/modal';
import { formatAccountNumber, formatDateTime, formatMoney } from '../../../lib/format';

/**
 * A withdrawal's fraud signals and its account's: each explained, the other accounts
 * of a shared payout account linked to their user pages, and "Dismiss" with a note.
 */
export function WithdrawalFlagsModal({ item, onClose }: { item: WithdrawalDto | null; onClose(): void }) {
  const { t } = useTranslation('adminFraud');
  return (
    <Modal
      open={item !== null}
      title={item ? t('withdrawal.title', { amount: formatMoney(item.amount) }) : ''}
      onClose={onClose}
      size="lg"
    >
      {item && (
        <div className="flag-modal" data-testid="withdrawal-flags" data-id={item._id}>
          <p>
            {t('withdrawal.summary', {
              amount: formatMoney(item.amount),
              method: t(`adminLists:methods.${item.paymentMethod}`),
              account: formatAccountNumber(item.accountDetails.accountNumber),
              date: formatDateTime(item.createdAt),
            })}{' '}
            <Link to={paths.adminUser(item.user._id)} data-testid="withdrawal-flags-user">
              {item.user.name}
            </Link>
          </p>
          <FlagList key={item._id} flags={item.flags ?? []} ownerId={item.user._id} />
        </div>
      )}
    </Modal>
  );
}
