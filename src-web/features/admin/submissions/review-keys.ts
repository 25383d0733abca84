import type { AdminSubmissionDto } from '@contract/admin';

/** What a key does on the review screen (shown by the help overlay, `?`). */
export type ReviewCommand = 'next' | 'previous' | 'approve' | 'reject' | 'undo' | 'open' | 'select' | 'help';

/** The keys of the review queue, in the order the help overlay lists them. */
export const REVIEW_KEYS: readonly { keys: readonly string[]; command: ReviewCommand }[] = [
  { keys: ['j', '↓'], command: 'next' },
  { keys: ['k', '↑'], command: 'previous' },
  { keys: ['Enter', 'Space'], command: 'open' },
  { keys: ['a'], command: 'approve' },
  { keys: ['r'], command: 'reject' },
  { keys: ['u'], command: 'undo' },
  { keys: ['x'], command: 'select' },
  { keys: ['?'], command: 'help' },
];

const BY_KEY: Record<string, ReviewCommand> = {
  j: 'next',
  ArrowDown: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  a: 'approve',
  r: 'reject',
  u: 'undo',
  Enter: 'open',
  ' ': 'open',
  x: 'select',
  '?': 'help',
};

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/**
 * The command of a key press, or null when the key is not the queue's or belongs to what has
 * focus: typing in a field or a picker, a shortcut with Ctrl/Alt/Cmd, Enter or space on a button,
 * link or checkbox (they press it, as everywhere else).
 */
export function reviewCommand(event: KeyLike): ReviewCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const command = BY_KEY[event.key] ?? null;
  if (!command) return null;
  // read by shape, so the rule is plain data (and testable without a DOM)
  const el = event.target as { tagName?: unknown; type?: unknown; isContentEditable?: unknown } | null;
  const tag = typeof el?.tagName === 'string' ? el.tagName : '';
  const checkbox = tag === 'INPUT' && el?.type === 'checkbox';
  if ((tag === 'INPUT' && !checkbox) || tag === 'SELECT' || tag === 'TEXTAREA') return null;
  if (el?.isContentEditable === true) return null;
  if (command === 'open' && (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY' || checkbox)) return null;
  return command;
}

/**
 * The id the queue goes to after `id` is decided: the next item of the list that can still be
 * reviewed, or null when none follows on this page.
 */
export function nextReviewable(
  items: readonly AdminSubmissionDto[],
  id: string,
  reviewable: (item: AdminSubmissionDto) => boolean,
): string | null {
  const at = items.findIndex((s) => s._id === id);
  for (let i = at + 1; i < items.length; i++) if (reviewable(items[i])) return items[i]._id;
  return null;
}

/** The id `step` items away from `id` (clamped to the list), or the first item's when `id` is not in it. */
export function stepFrom(items: readonly { _id: string }[], id: string | null, step: 1 | -1): string | null {
  if (items.length === 0) return null;
  const at = items.findIndex((s) => s._id === id);
  if (at < 0) return items[0]._id;
  return items[Math.min(items.length - 1, Math.max(0, at + step))]._id;
}
