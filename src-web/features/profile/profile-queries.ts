import type { SubmissionDto } from '@contract/submissions';
import type { UserTaskDto } from '@contract/tasks';
import type { UserDto } from '@contract/types';
import type { PayoutAccountDto, WithdrawalDto } from '@contract/withdrawals';
import { useQuery } from '@tanstack/react-query';
import { getData } from '../../lib/api';
import { ME_KEY } from '../../lib/auth';

/** Query keys of the profile screen (its own, so another screen's lists never collide with them). */
export const profileKeys = {
  withdrawals: ['profile', 'withdrawals'] as const,
  taskRecords: ['profile', 'task-records'] as const,
  approved: ['profile', 'approved-submissions'] as const,
  payoutAccount: ['profile', 'payout-account'] as const,
};

/** GET /api/withdraws/account: the saved payout account (masked), or null. */
export function usePayoutAccount() {
  return useQuery({
    queryKey: profileKeys.payoutAccount,
    queryFn: () => getData<PayoutAccountDto | null>('/withdraws/account'),
  });
}

/** Reads the user again on every visit: a review or a refund may have moved the balance. */
export function useFreshMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: () => getData<UserDto>('/users/me'),
    refetchOnMount: 'always',
    retry: false,
  });
}

/** GET /api/withdraws: the user's own withdrawals, newest first. */
export function useMyWithdrawals() {
  return useQuery({
    queryKey: profileKeys.withdrawals,
    queryFn: () => getData<WithdrawalDto[]>('/withdraws'),
  });
}

/** GET /api/tasks/user: the status boxes and the recent activity. */
export function useMyTaskRecords() {
  return useQuery({
    queryKey: profileKeys.taskRecords,
    queryFn: () => getData<UserTaskDto[]>('/tasks/user'),
  });
}

/** GET /api/submissions/user?status=approved: the week's and month's figures. */
export function useMyApprovedSubmissions() {
  return useQuery({
    queryKey: profileKeys.approved,
    queryFn: () => getData<SubmissionDto[]>('/submissions/user?status=approved'),
  });
}
