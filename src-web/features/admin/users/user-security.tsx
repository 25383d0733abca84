import type { SessionDto, UserSecurityDto } from '@contract/sessions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SessionsList } from '../../../components/security/sessions-list';
import { useToast } from '../../../components/toast';
import { request } from '../../../lib/api';
import { errorText } from '../../../lib/errors';

/**
 * A user's sign-in security on their detail screen: two-factor on or off (with its removal, for
 * someone who lost their phone) and their sessions, each of which an admin can end (audited).
 */
export function UserSecurity({ userId, self }: { userId: string; self: boolean }) {
  const { t } = useTranslation(['security', 'common']);
  const toast = useToast();
  const queryClient = useQueryClient();
  const key = ['admin', 'user-security', userId];
  const base = `/admin/users/${encodeURIComponent(userId)}`;
  const security = useQuery({
    queryKey: key,
    queryFn: () => request<{ data: UserSecurityDto }>(`${base}/security`).then((r) => r.data),
  });
  const done = (text: string) => {
    toast.success(text);
    void queryClient.invalidateQueries({ queryKey: key });
  };
  const fail = (err: unknown) => toast.error(errorText(t, err));
  const endOne = useMutation({
    mutationFn: (s: SessionDto) =>
      request(`${base}/sessions/${encodeURIComponent(s.id)}`, { method: 'DELETE' }),
    onSuccess: () => done(t('sessions.ended')),
    onError: fail,
  });
  const endAll = useMutation({
    mutationFn: () => request(`${base}/sessions`, { method: 'DELETE' }),
    onSuccess: () => done(t('sessions.ended')),
    onError: fail,
  });
  const removeTwoFactor = useMutation({
    mutationFn: () => request(`${base}/two-factor`, { method: 'DELETE' }),
    onSuccess: () => done(t('admin.removed')),
    onError: fail,
  });
  const data = security.data;
  return (
    <section className="card" aria-labelledby="user-security-title" data-testid="user-security">
      <h2 id="user-security-title">{t('admin.title')}</h2>
      {security.isError && <p role="alert">{errorText(t, security.error)}</p>}
      {data && (
        <>
          <div className="row-between">
            <span className={`badge ${data.twoFactorEnabled ? 'badge-ok' : 'badge-warn'}`}>
              {t(data.twoFactorEnabled ? 'admin.twoFactorOn' : 'admin.twoFactorOff')}
            </span>
            {data.twoFactorEnabled && !self && (
              <button
                type="button"
                className="btn btn-outline btn-sm"
                disabled={removeTwoFactor.isPending}
                onClick={() => {
                  if (window.confirm(t('admin.removeConfirm'))) removeTwoFactor.mutate();
                }}
              >
                {t('admin.removeTwoFactor')}
              </button>
            )}
          </div>
          {data.sessions.length === 0 ? (
            <p className="muted">{t('admin.noSessions')}</p>
          ) : (
            <>
              <SessionsList
                sessions={data.sessions}
                onEnd={(s) => endOne.mutate(s)}
                busy={endOne.isPending}
              />
              <button
                type="button"
                className="btn btn-outline btn-sm"
                disabled={endAll.isPending}
                onClick={() => {
                  if (window.confirm(t('admin.endAllConfirm'))) endAll.mutate();
                }}
              >
                {t('admin.endAll')}
              </button>
            </>
          )}
        </>
      )}
    </section>
  );
}
