import {
  type FeedbackCode,
  QUICK_APPROVE_FEEDBACK,
  REJECTION_REASON_LABELS,
  REJECTION_REASONS,
  type RejectionReason,
  type ReviewStatus,
} from './constants';
import { ERROR_MESSAGES, type ErrorCode } from './errors';
import { ruleSchema } from './rules';
import { FIELD_MESSAGES } from './schemas';

export const MAX_FEEDBACK_LENGTH = 2000;

/** Body of PUT /api/submissions/{id}/review. */
export interface ReviewRequest {
  status: 'approved' | 'rejected';
  /** may be left out with a feedbackCode: the code's English text is stored */
  feedback: string;
  /** only for a rejection; null on approval */
  rejectionReason: RejectionReason | null;
  /**
   * the system's fixed text instead of a written one: `task_completed` (approval) or
   * `rejection_reason` (rejection: the reason's label); shown in the reader's language
   */
  feedbackCode?: FeedbackCode | null;
}

/** The reply of a review: the submission after the change. */
export interface ReviewedSubmissionDto {
  _id: string;
  status: ReviewStatus;
  feedback: string | null;
  feedbackCode: FeedbackCode | null;
  rejectionReason: string | null;
  reward: number;
  description: string | null;
  createdAt: string;
  updatedAt: string;
  reviewedAt: string | null;
  task: { _id: string; title: string; reward: number };
  user: { _id: string; name: string };
}

export interface ReviewProblem {
  code: ErrorCode;
  field: string;
  message: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isRejectionReason(v: unknown): v is RejectionReason {
  return typeof v === 'string' && REJECTION_REASONS.some((r) => r === v);
}

/**
 * The review rules, in the order they are reported: a result, a feedback, and for a rejection
 * one of the preset reasons. Shared by the server and the review modal.
 */
export function checkReviewRequest(
  body: unknown,
): { ok: true; value: ReviewRequest } | { ok: false; problem: ReviewProblem } {
  const input = isRecord(body) ? body : {};
  const status = input.status;
  if (status !== 'approved' && status !== 'rejected') {
    return {
      ok: false,
      problem: { code: 'validation_error', field: 'status', message: FIELD_MESSAGES.invalidValue },
    };
  }
  const raw = input.feedbackCode ?? null;
  const code: FeedbackCode | null = raw === 'task_completed' || raw === 'rejection_reason' ? raw : null;
  if (raw !== null && code !== (status === 'approved' ? 'task_completed' : 'rejection_reason')) {
    return {
      ok: false,
      problem: { code: 'validation_error', field: 'feedbackCode', message: FIELD_MESSAGES.invalidValue },
    };
  }
  let feedback = typeof input.feedback === 'string' ? input.feedback.trim() : '';
  if (code === 'task_completed') feedback = QUICK_APPROVE_FEEDBACK;
  if (code === 'rejection_reason' && isRejectionReason(input.rejectionReason)) {
    feedback = REJECTION_REASON_LABELS[input.rejectionReason];
  }
  if (!feedback) {
    return {
      ok: false,
      problem: { code: 'feedback_required', field: 'feedback', message: ERROR_MESSAGES.feedback_required },
    };
  }
  if (feedback.length > MAX_FEEDBACK_LENGTH) {
    return {
      ok: false,
      problem: { code: 'validation_error', field: 'feedback', message: FIELD_MESSAGES.tooLong },
    };
  }
  if (status === 'approved') {
    // the spec's quick approve sends the fixed text itself: it is the same code
    const feedbackCode = feedback === QUICK_APPROVE_FEEDBACK ? 'task_completed' : null;
    return { ok: true, value: { status, feedback, rejectionReason: null, feedbackCode } };
  }
  const reason = input.rejectionReason;
  if (!isRejectionReason(reason)) {
    return {
      ok: false,
      problem: {
        code: 'rejection_reason_required',
        field: 'rejectionReason',
        message: ERROR_MESSAGES.rejection_reason_required,
      },
    };
  }
  return { ok: true, value: { status, feedback, rejectionReason: reason, feedbackCode: code } };
}

/** The body of PUT /api/submissions/{id}/review, read through the review rules. */
export const reviewRequestSchema = ruleSchema(checkReviewRequest);
