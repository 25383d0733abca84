import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminStatsDto, AdminSubmissionDto, TodayStatsDto } from '../../../../src-server/contract/admin';
import { PAGE_SIZES } from '../../../../src-server/contract/constants';
import type { Page } from '../../../../src-server/contract/types';
import type { WithdrawalDto } from '../../../../src-server/contract/withdrawals';
import { getData } from '../../../lib/api';

export const dashboardKeys = {
  all: ['admin', 'dashboard'] as const,
  stats: ['admin', 'dashboard', 'stats'] as const,
  today: ['admin', 'dashboard', 'today'] as const,
  withdrawals: ['admin', 'dashboard', 'withdrawals'] as const,
  submissions: ['admin', 'dashboard', 'submissions'] as const,
};

const limit = PAGE_SIZES.dashboardRecent;

/** Everything the dashboard shows, loaded side by side; always fresh when the page opens. */
export function useDashboard() {
  const options = { staleTime: 0, refetchOnMount: 'always' as const };
  const stats = useQuery({
    queryKey: dashboardKeys.stats,
    queryFn: ({ signal }) => getData<AdminStatsDto>('/admin/stats', { signal }),
    ...options,
  });
  const today = useQuery({
    queryKey: dashboardKeys.today,
    queryFn: ({ signal }) => getData<TodayStatsDto>('/admin/stats/today', { signal }),
    ...options,
  });
  const withdrawals = useQuery({
    queryKey: dashboardKeys.withdrawals,
    queryFn: ({ signal }) =>
      getData<Page<WithdrawalDto>>(`/admin/withdraws?status=pending&limit=${limit}`, { signal }),
    ...options,
  });
  const submissions = useQuery({
    queryKey: dashboardKeys.submissions,
    queryFn: ({ signal }) =>
      getData<AdminSubmissionDto[]>(`/admin/submissions/recent?limit=${limit}`, { signal }),
    ...options,
  });
  return { stats, today, withdrawals, submissions };
}

const withdrawalPath = (id: string, action: 'approve' | 'reject') =>
  `/admin/withdraws/${encodeURIComponent(id)}/${action}`;

/** Approving or rejecting a pending withdrawal; the dashboard reloads after either. */
export function useSettleWithdrawal() {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: ['admin'] });
  const approve = useMutation({
    mutationFn: (id: string) => getData<WithdrawalDto>(withdrawalPath(id, 'approve'), { method: 'PUT' }),
    onSettled,
  });
  const reject = useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      getData<WithdrawalDto>(withdrawalPath(id, 'reject'), { method: 'PUT', body: { reason } }),
    onSettled,
  });
  return { approve, reject };
}
