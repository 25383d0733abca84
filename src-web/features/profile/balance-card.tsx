import type { UserDto } from '@contract/types';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/format';

/** Total earnings, current and pending balance, and the withdraw button (off below the minimum). */
export function BalanceCard({
  user,
  minimumPayout,
  canWithdraw,
  onWithdraw,
}: {
  user: UserDto;
  minimumPayout: number;
  canWithdraw: boolean;
  onWithdraw(): void;
}) {
  const { t } = useTranslation('profile');
  const items = [
    ['totalEarnings', user.totalEarnings],
    ['current', user.balance],
    ['pending', user.pendingBalance],
  ] as const;
  return (
    <section className="card profile-balance" aria-labelledby="profile-balance-title">
      <h2 id="profile-balance-title">{t('balance.title')}</h2>
      <dl className="balance-grid">
        {items.map(([key, value]) => (
          <div key={key} className={`balance-item balance-${key}`} data-testid={`balance-${key}`}>
            <dt>{t(`balance.${key}`)}</dt>
            <dd>{formatMoney(value)}</dd>
            {key === 'pending' && <dd className="balance-hint muted">{t('balance.pendingHint')}</dd>}
          </div>
        ))}
      </dl>
      {!canWithdraw && (
        <p className="notice notice-info" data-testid="below-minimum">
          {t('balance.belowMinimum', {
            minimum: formatMoney(minimumPayout),
            balance: formatMoney(user.balance),
          })}
        </p>
      )}
      <button
        type="button"
        className="btn btn-primary btn-block"
        disabled={!canWithdraw}
        onClick={onWithdraw}
        data-testid="withdraw-button"
      >
        {t('balance.withdraw')}
      </button>
    </section>
  );
}
