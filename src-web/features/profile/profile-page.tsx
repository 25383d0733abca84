import { PAGE_SIZES, PAYMENT_METHODS } from '@contract/constants';
import { tlToKurus } from '@contract/money';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { MySessions } from '../../components/security/my-sessions';
import { TwoFactorPanel } from '../../components/security/two-factor-panel';
import { Skeleton } from '../../components/skeleton';
import { useToast } from '../../components/toast';
import { useAuth } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { useSettings } from '../../lib/settings';
import { sectionCounts } from '../../lib/task-offer';
import { recentActivities } from './activity';
import { BalanceCard } from './balance-card';
import { newIdempotencyKey } from './idempotency-key';
import { MailPreferences } from './mail-preferences';
import { ProfileCard } from './profile-card';
import {
  profileKeys,
  useFreshMe,
  useMyApprovedSubmissions,
  useMyTaskRecords,
  useMyWithdrawals,
  usePayoutAccount,
} from './profile-queries';
import { RecentActivity } from './recent-activity';
import { profileStats } from './stats';
import { StatsCard } from './stats-card';
import { TaskStatusBoxes } from './task-status-boxes';
import { WithdrawModal } from './withdraw-modal';
import { offeredMethods } from './withdraw-validation';
import { WithdrawalHistory } from './withdrawal-history';

const kurus = (tl: number) => tlToKurus(tl) ?? Math.round(tl * 100);

/** /profile: the user's card, money, statistics, task status, recent activity and withdrawals. */
export function ProfilePage() {
  const { t } = useTranslation(['profile', 'common', 'security']);
  usePageTitle(t('common:titles.profile'));
  const { user, loading, setUser } = useAuth();
  const settings = useSettings();
  const toast = useToast();
  const queryClient = useQueryClient();
  useFreshMe();
  const withdrawals = useMyWithdrawals();
  const records = useMyTaskRecords();
  const approved = useMyApprovedSubmissions();
  const payoutAccount = usePayoutAccount();
  // one Idempotency-Key per opening of the modal; null while it is closed
  const [withdrawKey, setWithdrawKey] = useState<string | null>(null);

  const stats = useMemo(
    () => (approved.data ? profileStats(approved.data, new Date()) : null),
    [approved.data],
  );
  const suspended = user?.status === 'suspended';
  const activities = useMemo(
    () => (records.data ? recentActivities(records.data, PAGE_SIZES.recentActivity, { suspended }) : null),
    [records.data, suspended],
  );

  if (loading) return <Skeleton layout="page" />;
  if (!user) {
    return (
      <section className="container narrow section">
        <div className="card center-card">
          <h1>{t('notFound.title')}</h1>
          <p className="muted">{t('notFound.message')}</p>
          <Link className="btn btn-primary" to={paths.login}>
            {t('notFound.signIn')}
          </Link>
        </div>
      </section>
    );
  }

  const minimumPayout = settings.payment.minimumPayout;
  const limits = {
    minimumPayout,
    balance: user.balance,
    methods: offeredMethods(PAYMENT_METHODS, settings.payment.methods),
  };
  const canWithdraw = kurus(user.balance) >= kurus(minimumPayout) && user.balance > 0;
  const failed = records.isError || approved.isError;

  const withdrawn = (amount: number) => {
    setWithdrawKey(null);
    toast.success(t('profilePageWithdrawSuccess'));
    setUser((u) => ({ ...u, balance: (kurus(u.balance) - kurus(amount)) / 100 }));
    void queryClient.invalidateQueries({ queryKey: profileKeys.withdrawals });
  };

  return (
    <div className="container section profile-page" data-testid="profile-page">
      <h1 className="sr-only">{t('pageTitle')}</h1>
      {failed && (
        <div className="notice notice-error row-between" role="alert">
          <span>{t('loadError')}</span>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => {
              void records.refetch();
              void approved.refetch();
            }}
          >
            {t('common:actions.retry')}
          </button>
        </div>
      )}
      <div className="profile-grid">
        <div className="profile-col">
          <ProfileCard user={user} />
          <BalanceCard
            user={user}
            minimumPayout={minimumPayout}
            canWithdraw={canWithdraw}
            onWithdraw={() => setWithdrawKey(newIdempotencyKey())}
          />
        </div>
        <div className="profile-col">
          <StatsCard
            completed={user.completedTasks}
            pending={user.pendingTasks}
            week={stats?.week ?? null}
            month={stats?.month ?? null}
          />
          <TaskStatusBoxes counts={records.data ? sectionCounts(records.data) : null} />
          <RecentActivity items={activities} />
        </div>
      </div>
      <section className="profile-security" aria-labelledby="security-title">
        <h2 id="security-title" className="section-title">
          {t('security:title')}
        </h2>
        <div className="profile-grid">
          <TwoFactorPanel />
          <MySessions />
          <MailPreferences user={user} />
        </div>
      </section>
      <WithdrawalHistory
        withdrawals={withdrawals.data ?? []}
        loading={withdrawals.isPending}
        failed={withdrawals.isError}
        onRetry={() => void withdrawals.refetch()}
      />
      {/* the saved account is read first: the form starts from it */}
      {withdrawKey && !payoutAccount.isPending && (
        <WithdrawModal
          key={withdrawKey}
          idempotencyKey={withdrawKey}
          limits={limits}
          saved={payoutAccount.data ?? null}
          onClose={() => setWithdrawKey(null)}
          onDone={withdrawn}
        />
      )}
    </div>
  );
}
