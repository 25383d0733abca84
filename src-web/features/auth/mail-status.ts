import type { MailStatusDto } from '@contract/account';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api';

/** Whether the site can send mail (SMTP set up on the server); undefined while asking. */
export function useMailConfigured(): boolean | undefined {
  const { data } = useQuery({
    queryKey: ['mail-status'],
    queryFn: () => request<{ data: MailStatusDto }>('/auth/mail-status').then((r) => r.data.configured),
    staleTime: 5 * 60_000,
  });
  return data;
}
