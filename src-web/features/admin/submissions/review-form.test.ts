import { QUICK_APPROVE_FEEDBACK } from '@contract/constants';
import { MAX_FEEDBACK_LENGTH } from '@contract/review';
import { describe, expect, it } from 'vitest';
import { checkReviewForm, isRejectionReason, quickApproveRequest, quickRejectRequest } from './review-form';

describe('checkReviewForm', () => {
  it('accepts an approval with a feedback and drops any reason', () => {
    expect(
      checkReviewForm({ status: 'approved', feedback: '  Well done  ', rejectionReason: 'no_share' }),
    ).toEqual({
      ok: true,
      request: { status: 'approved', feedback: 'Well done', rejectionReason: null, feedbackCode: null },
    });
  });

  it('asks for a feedback first ("Please write a feedback")', () => {
    expect(checkReviewForm({ status: 'approved', feedback: '   ', rejectionReason: '' })).toEqual({
      ok: false,
      problem: { field: 'feedback', key: 'feedbackRequired' },
    });
    expect(checkReviewForm({ status: 'rejected', feedback: '', rejectionReason: '' })).toEqual({
      ok: false,
      problem: { field: 'feedback', key: 'feedbackRequired' },
    });
  });

  it('asks a rejection for a preset reason ("Please select a rejection reason")', () => {
    expect(checkReviewForm({ status: 'rejected', feedback: 'Blurry', rejectionReason: '' })).toEqual({
      ok: false,
      problem: { field: 'rejectionReason', key: 'selectRejectionReason' },
    });
  });

  it('accepts a rejection with a feedback and a reason', () => {
    expect(
      checkReviewForm({ status: 'rejected', feedback: 'Blurry', rejectionReason: 'low_quality_image' }),
    ).toEqual({
      ok: true,
      request: {
        status: 'rejected',
        feedback: 'Blurry',
        rejectionReason: 'low_quality_image',
        feedbackCode: null,
      },
    });
  });

  it('refuses a feedback longer than the server takes', () => {
    const result = checkReviewForm({
      status: 'approved',
      feedback: 'x'.repeat(MAX_FEEDBACK_LENGTH + 1),
      rejectionReason: '',
    });
    expect(result).toEqual({ ok: false, problem: { field: 'feedback', key: 'feedbackTooLong' } });
  });
});

describe('the quick actions', () => {
  it('approve with the fixed feedback and its code', () => {
    expect(quickApproveRequest()).toEqual({
      status: 'approved',
      feedback: QUICK_APPROVE_FEEDBACK,
      rejectionReason: null,
      feedbackCode: 'task_completed',
    });
  });

  it("reject with the reason as the feedback's code, in English for the record", () => {
    expect(quickRejectRequest('wrong_format')).toEqual({
      status: 'rejected',
      feedback: 'Wrong format',
      rejectionReason: 'wrong_format',
      feedbackCode: 'rejection_reason',
    });
  });

  it('knows the preset reasons', () => {
    expect(isRejectionReason('irrelevant_evidence')).toBe(true);
    expect(isRejectionReason('because')).toBe(false);
  });
});
