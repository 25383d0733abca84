import type { SessionDto } from '@contract/sessions';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';

/**
 * The sessions of an account, newest sign-in last: the browser, the address, when it began and
 * was last seen, and a button to end each (not shown when `onEnd` is absent).
 */
export function SessionsList({
  sessions,
  onEnd,
  busy,
}: {
  sessions: SessionDto[];
  onEnd?: (session: SessionDto) => void;
  busy?: boolean;
}) {
  const { t } = useTranslation('security');
  return (
    <ul className="session-list" data-testid="session-list">
      {sessions.map((s) => (
        <li key={s.id} className="session-item">
          <div>
            <strong>{s.userAgent || t('sessions.unknownDevice')}</strong>{' '}
            {s.current && <span className="badge badge-ok">{t('sessions.current')}</span>}
            <div className="muted small">
              {s.ip ?? t('sessions.unknownAddress')} ·{' '}
              {t('sessions.started', { date: formatDateTime(s.createdAt) })} ·{' '}
              {t('sessions.lastSeen', { date: formatDateTime(s.lastSeenAt) })}
            </div>
          </div>
          {onEnd && (
            <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => onEnd(s)}>
              {t('sessions.end')}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
