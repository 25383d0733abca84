import type { AdminSubmissionDto } from '@contract/admin';
import type { ReviewRequest } from '@contract/review';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, reviewSubmission } from '../../../components/admin/admin-api';
import { newIdempotencyKey } from '../../../components/admin/idempotency-key';
import { serverErrorText } from '../../../components/admin/server-error';
import { useToast } from '../../../components/toast';
import { DecisionDelay, type HeldDecision } from './decision-delay';

/**
 * The review screen's quick decisions (the `a` key, quick approve and reject), each held a few
 * seconds with an undo before it is sent. Leaving the screen sends the held ones at once; closing
 * the tab first asks, and a decision never sent leaves its proof pending (no money moves).
 */
export function useDecisionDelay() {
  const { t } = useTranslation('adminLists');
  const toast = useToast();
  const queryClient = useQueryClient();
  const [held, setHeld] = useState<HeldDecision[]>([]);
  // the latest t, toast and client, for a timer set before a re-render
  const live = useRef({ t, toast, queryClient });
  live.current = { t, toast, queryClient };
  const delay = useRef<DecisionDelay | null>(null);
  if (!delay.current) {
    const send = (d: HeldDecision) => {
      const { t, toast, queryClient } = live.current;
      const approved = d.request.status === 'approved';
      reviewSubmission(d.id, d.request, d.key).then(
        () => {
          void queryClient.invalidateQueries({ queryKey: adminKeys.all });
          toast.success(t(approved ? 'approvalSuccess' : 'rejectionSuccess'));
        },
        (err: unknown) => {
          // reviewed by someone else meanwhile, or refused: the list shows the proof as it is now
          void queryClient.invalidateQueries({ queryKey: adminKeys.all });
          toast.error(
            serverErrorText(
              t,
              err,
              approved ? 'adminLists:approvalProcessError' : 'adminLists:rejectionProcessError',
            ),
          );
        },
      );
    };
    const made = new DecisionDelay(send, () => setHeld(made.list()));
    delay.current = made;
  }
  const current = delay.current;

  useEffect(() => () => current.flush(), [current]);
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (current.list().length > 0) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [current]);

  const hold = useCallback(
    (item: AdminSubmissionDto, request: ReviewRequest) =>
      current.hold({ id: item._id, title: item.task.title, request, key: newIdempotencyKey() }),
    [current],
  );
  return {
    held,
    hold,
    /** undoes one held decision, or the newest; the id undone, or null when none was held */
    undo: useCallback(
      (id?: string) => {
        const target = id ?? current.list()[0]?.id;
        return target && current.undo(target) ? target : null;
      },
      [current],
    ),
    isHeld: useCallback((id: string) => held.some((d) => d.id === id), [held]),
    pause: useCallback(() => current.pause(), [current]),
    resume: useCallback(() => current.resume(), [current]),
    leftOf: useCallback((d: HeldDecision, now: number) => current.leftOf(d, now), [current]),
  };
}
