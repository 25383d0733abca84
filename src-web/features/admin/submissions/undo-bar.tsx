import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HeldDecision } from './decision-delay';

/**
 * The decisions waiting to be sent, the newest first, each with its seconds left and an undo
 * (also the `u` key, for the newest). Shown under the list and in the evidence window.
 */
export function UndoBar({
  held,
  onUndo,
  testId = 'undo-bar',
}: {
  held: readonly HeldDecision[];
  onUndo(id: string): void;
  testId?: string;
}) {
  const { t } = useTranslation('adminReview');
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (held.length === 0) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [held]);
  if (held.length === 0) return null;
  return (
    <ul className="ar-undo" aria-label={t('queue.undo.label')} data-testid={testId}>
      {held.map((d) => (
        <li key={d.id} data-testid="held-decision" data-id={d.id} data-status={d.request.status}>
          <span aria-live="polite">
            {t(d.request.status === 'approved' ? 'queue.undo.approved' : 'queue.undo.rejected', {
              title: d.title,
            })}
          </span>
          <span className="muted small" aria-hidden="true">
            {t('queue.undo.seconds', { count: Math.max(0, Math.ceil((d.sendAt - now) / 1000)) })}
          </span>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => onUndo(d.id)}
            aria-label={t('queue.undo.buttonFor', { title: d.title })}
            data-testid="undo-decision"
          >
            {t('queue.undo.button')}
          </button>
        </li>
      ))}
    </ul>
  );
}
