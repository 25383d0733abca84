import { useTranslation } from 'react-i18next';
import { Skeleton } from '../../../components/skeleton';
import { usePageTitle } from '../../../lib/page-title';
import { useDashboard } from './dashboard-api';
import { PendingWithdrawals } from './pending-withdrawals';
import { RecentSubmissions } from './recent-submissions';
import { StatCards, TodayActivity } from './stat-cards';

/** /admin: the totals, today's activity, pending withdrawals and the newest submissions. */
export function DashboardPage() {
  const { t } = useTranslation('admin');
  usePageTitle(t('common:titles.dashboard'));
  const { stats, today, withdrawals, submissions } = useDashboard();
  const queries = [stats, today, withdrawals, submissions];
  const failed = queries.some((q) => q.isError && q.data === undefined);
  const loading = queries.some((q) => q.isPending);

  return (
    <section className="admin-page" aria-labelledby="admin-title">
      <header className="admin-page-head">
        <div>
          <h1 id="admin-title" data-testid="admin-title">
            {t('menu.dashboard')}
          </h1>
          <p className="muted">{t('dashboard.subtitle')}</p>
        </div>
      </header>
      {failed ? (
        <div className="notice notice-error admin-load-error" role="alert">
          <p>{t('dashboard.dashboardDataLoadError')}</p>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => {
              for (const q of queries) if (q.isError) void q.refetch();
            }}
          >
            {t('common:actions.retry')}
          </button>
        </div>
      ) : loading || !stats.data || !today.data || !withdrawals.data || !submissions.data ? (
        <Skeleton layout="page" />
      ) : (
        <div className="admin-dashboard">
          <StatCards stats={stats.data} />
          <TodayActivity today={today.data} />
          <PendingWithdrawals items={withdrawals.data.items} total={withdrawals.data.total} />
          <RecentSubmissions items={submissions.data} />
        </div>
      )}
    </section>
  );
}
