import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/format';
import type { PeriodStats } from './stats';

/** Completed and pending counts, and this week's and this month's earnings with their task counts. */
export function StatsCard({
  completed,
  pending,
  week,
  month,
}: {
  completed: number;
  pending: number;
  week: PeriodStats | null;
  month: PeriodStats | null;
}) {
  const { t } = useTranslation('profile');
  const period = (key: 'week' | 'month', stats: PeriodStats | null) => (
    <div className="stat" data-testid={`stat-${key}`}>
      <dt>{t(`stats.${key}`)}</dt>
      <dd className="stat-value">{stats ? formatMoney(stats.earnings) : '…'}</dd>
      <dd className="stat-sub muted">{stats ? t('stats.tasks', { count: stats.tasks }) : ''}</dd>
    </div>
  );
  return (
    <section className="card profile-stats" aria-labelledby="profile-stats-title">
      <h2 id="profile-stats-title">{t('stats.title')}</h2>
      <dl className="stat-grid">
        <div className="stat" data-testid="stat-completed">
          <dt>{t('stats.completed')}</dt>
          <dd className="stat-value">{completed}</dd>
        </div>
        <div className="stat" data-testid="stat-pending">
          <dt>{t('stats.pending')}</dt>
          <dd className="stat-value">{pending}</dd>
        </div>
        {period('week', week)}
        {period('month', month)}
      </dl>
    </section>
  );
}
