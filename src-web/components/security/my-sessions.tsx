import type { SessionDto } from '@contract/sessions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { request } from '../../lib/api';
import { useAuth } from '../../lib/auth';
import { errorText } from '../../lib/errors';
import { useToast } from '../toast';
import { SessionsList } from './sessions-list';

const KEY = ['me', 'sessions'] as const;

/** The signed-in user's own sessions, each with an end button, and "sign out everywhere else". */
export function MySessions() {
  const { t } = useTranslation(['security', 'common']);
  const toast = useToast();
  const { signOut } = useAuth();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: KEY,
    queryFn: () => request<{ data: SessionDto[] }>('/users/me/sessions').then((r) => r.data),
  });
  const end = useMutation({
    mutationFn: (s: SessionDto) =>
      request(`/users/me/sessions/${encodeURIComponent(s.id)}`, { method: 'DELETE' }),
    onSuccess: (_r, s) => {
      toast.success(t('sessions.ended'));
      if (s.current) signOut();
      else void queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (err) => toast.error(errorText(t, err)),
  });
  const others = useMutation({
    mutationFn: () =>
      request<{ data: { ended: number } }>('/users/me/sessions/revoke-others', { method: 'POST' }).then(
        (r) => r.data,
      ),
    onSuccess: ({ ended }) => {
      toast.success(t('sessions.endedOthers', { count: ended }));
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (err) => toast.error(errorText(t, err)),
  });
  return (
    <section className="card security-card" aria-labelledby="sessions-title" data-testid="my-sessions">
      <h2 id="sessions-title">{t('sessions.title')}</h2>
      <p className="muted">{t('sessions.intro')}</p>
      {list.isError && <p role="alert">{t('sessions.loadError')}</p>}
      {list.data && <SessionsList sessions={list.data} onEnd={(s) => end.mutate(s)} busy={end.isPending} />}
      {list.data && list.data.length > 1 && (
        <button
          type="button"
          className="btn btn-outline"
          disabled={others.isPending}
          onClick={() => others.mutate()}
        >
          {t('sessions.endOthers')}
        </button>
      )}
    </section>
  );
}
