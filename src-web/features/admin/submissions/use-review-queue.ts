import type { AdminSubmissionDto } from '@contract/admin';
import type { ReviewRequest } from '@contract/review';
import { useCallback, useEffect, useRef, useState } from 'react';
import { quickApproveRequest } from './review-form';
import { nextReviewable, reviewCommand, stepFrom } from './review-keys';

/**
 * The review queue driven from the keyboard (review-keys.ts): a current row moved with j/k,
 * the evidence opened with Enter or space, `a` approving with the fixed feedback (held a few
 * seconds, `u` undoing it), `r` opening the evidence at the reason picker, `x` ticking the row,
 * `?` the help. After each decision the
 * next item that can be reviewed opens; after the page's last one, the first of the refreshed
 * list does, so an admin clears a queue without the mouse.
 */
export function useReviewQueue({
  items,
  reviewable,
  toggle,
  hold,
  undo,
  busy,
}: {
  items: readonly AdminSubmissionDto[] | undefined;
  reviewable(item: AdminSubmissionDto): boolean;
  toggle(id: string): void;
  /** holds a decision for its undo seconds (use-decision-delay.ts) */
  hold(item: AdminSubmissionDto, request: ReviewRequest): boolean;
  /** undoes the newest held decision: its id, or null */
  undo(): string | null;
  /** another dialog is open (the full review, a confirmation): the keys are its own */
  busy: boolean;
}) {
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [focusReason, setFocusReason] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  // the page ran out of items to review: open the first of the next list that arrives
  const advance = useRef<'modal' | 'list' | null>(null);
  const list = items ?? [];
  const current = list.find((s) => s._id === currentId) ?? list[0] ?? null;

  /** After `item` was decided: the next reviewable item (in the evidence when it was open). */
  const decided = useCallback(
    (item: AdminSubmissionDto, inModal: boolean) => {
      const next = nextReviewable(items ?? [], item._id, reviewable);
      setFocusReason(false);
      if (next) {
        setCurrentId(next);
        if (inModal) setViewing(next);
      } else {
        advance.current = inModal ? 'modal' : 'list';
        setViewing(null);
      }
    },
    [items, reviewable],
  );

  useEffect(() => {
    const mode = advance.current;
    if (!mode || !items) return;
    const first = items.find(reviewable);
    if (!first) return;
    advance.current = null;
    setCurrentId(first._id);
    if (mode === 'modal') setViewing(first._id);
  }, [items, reviewable]);

  const onKey = useCallback(
    (event: KeyboardEvent) => {
      if (busy || event.defaultPrevented) return;
      const command = reviewCommand(event);
      if (!command) return;
      if (command === 'help') {
        event.preventDefault();
        setHelpOpen((open) => !open);
        return;
      }
      if (helpOpen) return;
      if (command === 'undo') {
        // back to the undone item, in the evidence when it is open
        const id = undo();
        if (id) {
          event.preventDefault();
          setCurrentId(id);
          if (viewing) setViewing(id);
        }
        return;
      }
      const viewed = list.find((s) => s._id === viewing) ?? null;
      // another dialog (a bulk run's confirmation) has the keys
      if (!viewed && document.querySelector('dialog[open]')) return;
      const target = viewed ?? current;
      if (!target) return;
      event.preventDefault();
      switch (command) {
        case 'next':
        case 'previous': {
          // the first move picks the first row; then one row at a time
          const id =
            currentId === null && !viewed
              ? target._id
              : stepFrom(list, target._id, command === 'next' ? 1 : -1);
          setCurrentId(id);
          if (viewed) setViewing(id);
          return;
        }
        case 'open':
          if (!viewed) setViewing(target._id);
          return;
        case 'select':
          if (reviewable(target)) toggle(target._id);
          return;
        case 'approve':
          // a banned account's proof is rejected or left, never approved (the server refuses it)
          if (!reviewable(target) || target.user.status === 'banned') return;
          if (hold(target, quickApproveRequest())) decided(target, Boolean(viewed));
          return;
        case 'reject':
          if (!reviewable(target)) return;
          if (viewed) document.getElementById('quick-reason')?.focus();
          else {
            setFocusReason(true);
            setViewing(target._id);
          }
          return;
      }
    },
    [busy, helpOpen, list, viewing, current, currentId, reviewable, toggle, hold, undo, decided],
  );

  useEffect(() => {
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onKey]);

  // the current row holds the focus while the list is what the admin works in
  useEffect(() => {
    if (viewing || busy || helpOpen || !current || currentId === null) return;
    // never taken from a field or a button outside the table (the search box, the bulk bar)
    const active = document.activeElement;
    if (active && active !== document.body && !active.closest('tbody')) return;
    const row = document.querySelector<HTMLElement>(`tr[data-row-id="${CSS.escape(current._id)}"]`);
    if (row && !row.contains(active)) row.focus();
  }, [current, currentId, viewing, busy, helpOpen]);

  return {
    currentId: current?._id ?? null,
    setCurrentId,
    viewing,
    setViewing: (id: string | null) => {
      setFocusReason(false);
      if (id) setCurrentId(id);
      setViewing(id);
    },
    focusReason,
    helpOpen,
    closeHelp: () => setHelpOpen(false),
    openHelp: () => setHelpOpen(true),
    decided,
  };
}
