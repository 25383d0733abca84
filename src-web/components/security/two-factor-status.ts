import type { TwoFactorStatusDto } from '@contract/sessions';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api';

export const twoFactorKey = ['me', 'two-factor'] as const;

/** Whether the signed-in account has two-factor on, and whether it must (apart from the QR code's library). */
export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKey,
    queryFn: () => request<{ data: TwoFactorStatusDto }>('/users/me/two-factor').then((r) => r.data),
  });
}
