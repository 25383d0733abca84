import type { InboxPageDto } from '@contract/inbox';
import { useQuery } from '@tanstack/react-query';
import { getData } from '../../lib/api';

export const INBOX_PAGE_SIZE = 20;
/** How often the bell asks for the unread count while the app is open (and on focus). */
const UNREAD_POLL_MS = 60_000;

export const inboxKeys = {
  all: ['inbox'] as const,
  unread: ['inbox', 'unread'] as const,
  page: (page: number) => ['inbox', 'page', page] as const,
};

/** The bell's badge: the signed-in user's unread count. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: inboxKeys.unread,
    queryFn: ({ signal }) => getData<{ unread: number }>('/notifications/unread', { signal }),
    enabled,
    refetchInterval: UNREAD_POLL_MS,
    refetchOnWindowFocus: true,
    select: (d) => d.unread,
  });
}

/** One page of the inbox, newest first. */
export function useInboxPage(page: number) {
  return useQuery({
    queryKey: inboxKeys.page(page),
    queryFn: ({ signal }) =>
      getData<InboxPageDto>(`/notifications?page=${page}&limit=${INBOX_PAGE_SIZE}`, { signal }),
  });
}

export const markRead = (id: string) =>
  getData<{ _id: string; read: true }>(`/notifications/${encodeURIComponent(id)}/read`, { method: 'PUT' });

export const markAllRead = () => getData<{ updated: number }>('/notifications/read-all', { method: 'PUT' });
