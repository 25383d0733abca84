import { REJECTION_REASONS, type RejectionReason } from '../../../src-server/contract/constants';
import { checkReviewRequest, type ReviewRequest } from '../../../src-server/contract/review';

/** The review modal's values: a result, a feedback and (for a rejection) a preset reason. */
export interface ReviewValues {
  status: 'approved' | 'rejected';
  feedback: string;
  /** '' while none is chosen */
  rejectionReason: RejectionReason | '';
}

export type ReviewField = 'feedback' | 'rejectionReason';

/** A problem as a field and a message key of the adminReview namespace. */
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

/** Quick approve from the evidence modal: the spec's fixed feedback. */
export function quickApproveRequest(feedback: string): ReviewRequest {
  return { status: 'approved', feedback, rejectionReason: null };
}

/** Quick reject from the evidence modal: the chosen preset reason, its label as the feedback. */
export function quickRejectRequest(reason: RejectionReason, label: string): ReviewRequest {
  return { status: 'rejected', feedback: label.trim() || reason, rejectionReason: reason };
}
