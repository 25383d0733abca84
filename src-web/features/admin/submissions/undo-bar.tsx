import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HeldDecision } from './decision-delay';

/**
 * The decisions waiting to be sent, the newest first, each with its seconds left and an undo
 * (also the `u` key, for the newest). Shown under the list and in the evidence window; the
 * seconds stop while the focus is on it.
 */
export function UndoBar({
  delay,
  onUndo,
  testId = 'undo-bar',
}: {
  delay: {
    held: readonly HeldDecision[];
    pause(): void;
    resume(): void;
    leftOf(d: HeldDecision, now: number): number;
  };
  onUndo(id: string): void;
  testId?: string;
}) {
  const { held } = delay;
  const { t } = useTranslation('adminLists');
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (held.length === 0) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [held]);
  if (held.length === 0) return null;
  return (
    // the clocks stop while the focus is on the list: an undo is not lost mid-reach (not on
    // hover: the list appears where the pointer rests after a click, and would hold it forever)
    <ul
      className="al-undo"
      aria-label={t('queue.undo.label')}
      data-testid={testId}
      onFocus={delay.pause}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) delay.resume();
      }}
    >
      {held.map((d) => (
        <li key={d.id} data-testid="held-decision" data-id={d.id} data-status={d.request.status}>
          <span aria-live="polite">
            {t(d.request.status === 'approved' ? 'queue.undo.approved' : 'queue.undo.rejected', {
              title: d.title,
            })}
          </span>
          <span className="muted small" aria-hidden="true">
            {t('queue.undo.seconds', { count: Math.ceil(delay.leftOf(d, now) / 1000) })}
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
