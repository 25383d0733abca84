import type { FeedbackCode } from '@contract/constants';
import type { TFunction } from 'i18next';

/**
 * The review feedback to show beside the rejection reason: the system's fixed text in the
 * reader's language, nothing when it only repeats the reason (a quick reject), else what the
 * admin wrote.
 */
export function shownFeedback(
  t: TFunction,
  s: { feedback: string | null; feedbackCode: FeedbackCode | null },
): string | null {
  if (s.feedbackCode === 'task_completed') return t('common:feedbackCodes.task_completed');
  if (s.feedbackCode === 'rejection_reason') return null;
  return s.feedback;
}
