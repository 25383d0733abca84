import type { UserTaskDto } from '@contract/tasks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCountdown } from '../../lib/use-now';

/**
 * Brings one part of the task page into view below the sticky top bar and moves the focus to its
 * heading, so a screen reader starts there too (the heading takes focus with tabIndex -1).
 */
export function goTo(sectionId: string) {
  const section = document.getElementById(sectionId);
  if (!section) return;
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  section.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  section.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
}

/** What a worker who has just started the task does first: copy their comment, or send the proof. */
export function nextStepOf(record: UserTaskDto | null): string {
  return record?.automaticComment ? 'task-comment' : 'proof-form';
}

/**
 * On a phone, the proof form sits below the description and steps; this bar at the bottom keeps
 * the time left and the way to the form in reach while the worker reads or copies. It steps
 * aside while the form's own send button is on screen, so there is never two of them.
 */
export function TaskActionBar({ record, now }: { record: UserTaskDto; now: number }) {
  const { t } = useTranslation('common');
  const [submitInView, setSubmitInView] = useState(false);
  useEffect(() => {
    const submit = document.querySelector('#proof-form [type=submit]');
    if (!submit || typeof IntersectionObserver === 'undefined') return;
    const watch = new IntersectionObserver(([entry]) => setSubmitInView(entry.isIntersecting));
    watch.observe(submit);
    return () => watch.disconnect();
  }, []);
  return (
    <div className="task-action-bar" data-testid="task-action-bar" hidden={submitInView}>
      {record.expiresAt && (
        <span className="task-action-time">
          {t('offer.timeLeft')}{' '}
          <time dateTime={record.expiresAt}>{formatCountdown(Date.parse(record.expiresAt) - now)}</time>
        </span>
      )}
      <button
        type="button"
        className="btn btn-primary"
        onClick={() => goTo('proof-form')}
        data-testid="action-bar-proof"
      >
        {t('offer.action.finish')}
      </button>
    </div>
  );
}
