import type { AdminStatsDto, TodayStatsDto } from '@contract/admin';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { formatCount, formatGrowth, growthTone } from '../../../components/admin/growth';
import { CheckIcon, ListIcon, UserIcon, WalletIcon } from '../../../components/icons';
import { formatMoney } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { GrowthWords } from './growth-words';

interface Card {
  key: keyof AdminStatsDto;
  /** the figure whose last 30 days are told in words, with a trend line */
  trend?: 'users' | 'tasks' | 'rewards';
  value: string;
  growth: number | null;
  /** nothing in the earlier 30 days: the figure is new, not 0 % */
  isNew?: boolean;
  icon: ReactNode;
  /** a line under the figure (the appeals waiting, under the pending submissions) */
  extra?: ReactNode;
}

/** The four totals, each with its growth over the last 30 days where the server counts one. */
export function StatCards({ stats }: { stats: AdminStatsDto }) {
  const { t } = useTranslation('admin');
  const lang = currentLanguage();
  const cards: Card[] = [
    {
      key: 'totalUsers',
      value: formatCount(stats.totalUsers),
      growth: stats.userGrowthPercent,
      isNew: stats.userGrowthNew,
      trend: 'users',
      icon: <UserIcon />,
    },
    {
      key: 'totalTasks',
      value: formatCount(stats.totalTasks),
      growth: stats.taskGrowthPercent,
      isNew: stats.taskGrowthNew,
      trend: 'tasks',
      icon: <ListIcon />,
    },
    {
      key: 'pendingSubmissions',
      value: formatCount(stats.pendingSubmissions),
      growth: null,
      icon: <CheckIcon />,
      extra:
        stats.pendingAppeals > 0 ? (
          <Link to={`${paths.adminSubmissions}?status=appeals`} data-testid="pending-appeals">
            {t('dashboard.stats.pendingAppeals', { count: stats.pendingAppeals })}
          </Link>
        ) : null,
    },
    {
      key: 'totalRewards',
      value: formatMoney(stats.totalRewards),
      growth: stats.earningGrowthPercent,
      isNew: stats.earningGrowthNew,
      trend: 'rewards',
      icon: <WalletIcon />,
    },
  ];
  return (
    <ul className="admin-stats" data-testid="stat-cards">
      {cards.map((card) => (
        <li key={card.key} className="card admin-stat" data-testid={`stat-${card.key}`}>
          <span className={`admin-stat-icon admin-stat-icon-${card.key}`}>{card.icon}</span>
          <div className="admin-stat-body">
            <p className="admin-stat-label">{t(`dashboard.stats.${card.key}`)}</p>
            <p className="admin-stat-value">{card.value}</p>
            {card.trend && stats.trend ? (
              <GrowthWords metric={card.trend} trend={stats.trend[card.trend]} />
            ) : card.growth === null ? (
              <p className="admin-stat-growth muted">{card.extra ?? t('dashboard.stats.awaitingReview')}</p>
            ) : card.isNew ? (
              <p className="admin-stat-growth growth-up" data-testid="growth-new">
                {t('dashboard.stats.growthNew')}
              </p>
            ) : (
              <p className={`admin-stat-growth growth-${growthTone(card.growth)}`}>
                {t('dashboard.stats.growth', { value: formatGrowth(card.growth, lang) })}
              </p>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Today's activity since midnight in Turkey. */
export function TodayActivity({ today }: { today: TodayStatsDto }) {
  const { t } = useTranslation('admin');
  const items: { key: keyof TodayStatsDto; tone: string }[] = [
    { key: 'todayUsers', tone: 'brand' },
    { key: 'todaySubmissions', tone: 'info' },
    { key: 'todayApproved', tone: 'ok' },
    { key: 'todayRejected', tone: 'err' },
  ];
  return (
    <section className="card admin-today" aria-labelledby="today-title">
      <h2 id="today-title">{t('dashboard.today.title')}</h2>
      <dl className="admin-today-grid">
        {items.map((item) => (
          <div key={item.key} className={`admin-today-item tone-${item.tone}`} data-testid={item.key}>
            <dt>{t(`dashboard.today.${item.key}`)}</dt>
            <dd>{formatCount(today[item.key])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
