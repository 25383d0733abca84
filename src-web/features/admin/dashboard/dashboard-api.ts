import type { AdminStatsDto, AdminSubmissionDto, TodayStatsDto } from '@contract/admin';
import { PAGE_SIZES } from '@contract/constants';
import type { Page } from '@contract/types';
import type { WithdrawalDto } from '@contract/withdrawals';
import { useQuery } from '@tanstack/react-query';
import { adminKeys } from '../../../components/admin/admin-api';
import { getData } from '../../../lib/api';

const limit = PAGE_SIZES.dashboardRecent;

/** Everything the dashboard shows, loaded side by side; always fresh when the page opens. */
export function useDashboard() {
  const options = { staleTime: 0, refetchOnMount: 'always' as const };
  const stats = useQuery({
    queryKey: adminKeys.dashboard('stats'),
    queryFn: ({ signal }) => getData<AdminStatsDto>('/admin/stats', { signal }),
    ...options,
  });
  const today = useQuery({
    queryKey: adminKeys.dashboard('today'),
    queryFn: ({ signal }) => getData<TodayStatsDto>('/admin/stats/today', { signal }),
    ...options,
  });
  const withdrawals = useQuery({
    queryKey: adminKeys.dashboard('withdrawals'),
    queryFn: ({ signal }) =>
      getData<Page<WithdrawalDto>>(`/admin/withdraws?status=pending&limit=${limit}`, { signal }),
    ...options,
  });
  const submissions = useQuery({
    queryKey: adminKeys.dashboard('submissions'),
    queryFn: ({ signal }) =>
      getData<AdminSubmissionDto[]>(`/admin/submissions/recent?limit=${limit}`, { signal }),
    ...options,
  });
  return { stats, today, withdrawals, submissions };
}
