import {
  QUICK_APPROVE_FEEDBACK,
  REJECTION_REASON_LABELS,
  REJECTION_REASONS,
  type RejectionReason,
} from '@contract/constants';
import { checkReviewRequest, type ReviewRequest } from '@contract/review';

/** The review modal's values: a result, a feedback and (for a rejection) a preset reason. */
export interface ReviewValues {
  status: 'approved' | 'rejected';
  feedback: string;
  /** '' while none is chosen */
  rejectionReason: RejectionReason | '';
}

export type ReviewField = 'feedback' | 'rejectionReason';

/** A problem as a field and a message key of the adminLists namespace. */
export interface ReviewFormProblem {
  field: ReviewField;
  key: 'feedbackRequired' | 'selectRejectionReason' | 'feedbackTooLong';
}

export function isRejectionReason(value: string): value is RejectionReason {
  return REJECTION_REASONS.some((r) => r === value);
}

/**
 * Checks the review modal with the contract's rules (the server's own): feedback first, then the
 * rejection reason. Returns the request to send, or the first problem.
 */
export function checkReviewForm(
  values: ReviewValues,
): { ok: true; request: ReviewRequest } | { ok: false; problem: ReviewFormProblem } {
  const checked = checkReviewRequest({
    status: values.status,
    feedback: values.feedback,
    rejectionReason: values.status === 'rejected' && values.rejectionReason ? values.rejectionReason : null,
  });
  if (checked.ok) return { ok: true, request: checked.value };
  if (checked.problem.code === 'rejection_reason_required') {
    return { ok: false, problem: { field: 'rejectionReason', key: 'selectRejectionReason' } };
  }
  if (checked.problem.code === 'feedback_required') {
    return { ok: false, problem: { field: 'feedback', key: 'feedbackRequired' } };
  }
  return { ok: false, problem: { field: 'feedback', key: 'feedbackTooLong' } };
}

/** Quick approve from the evidence modal: the spec's fixed feedback, as its code (shown translated). */
export function quickApproveRequest(): ReviewRequest {
  return {
    status: 'approved',
    feedback: QUICK_APPROVE_FEEDBACK,
    rejectionReason: null,
    feedbackCode: 'task_completed',
  };
}

/** Quick reject from the evidence modal: the chosen preset reason, which is also the feedback. */
export function quickRejectRequest(reason: RejectionReason): ReviewRequest {
  return {
    status: 'rejected',
    feedback: REJECTION_REASON_LABELS[reason],
    rejectionReason: reason,
    feedbackCode: 'rejection_reason',
  };
}
