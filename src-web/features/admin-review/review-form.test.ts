import { describe, expect, it } from 'vitest';
import { QUICK_APPROVE_FEEDBACK } from '../../../src-server/contract/constants';
import { MAX_FEEDBACK_LENGTH } from '../../../src-server/contract/review';
import { checkReviewForm, isRejectionReason, quickApproveRequest, quickRejectRequest } from './review-form';

describe('checkReviewForm', () => {
  it('accepts an approval with a feedback and drops any reason', () => {
    expect(
      checkReviewForm({ status: 'approved', feedback: '  Well done  ', rejectionReason: 'no_share' }),
    ).toEqual({
      ok: true,
      request: { status: 'approved', feedback: 'Well done', rejectionReason: null },
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
      request: { status: 'rejected', feedback: 'Blurry', rejectionReason: 'low_quality_image' },
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
  it('approve with the fixed feedback', () => {
    expect(quickApproveRequest(QUICK_APPROVE_FEEDBACK)).toEqual({
      status: 'approved',
      feedback: 'task completed successfully',
      rejectionReason: null,
    });
  });

  it('reject with the reason and its label as the feedback', () => {
    expect(quickRejectRequest('wrong_format', 'The proof is in the wrong format')).toEqual({
      status: 'rejected',
      feedback: 'The proof is in the wrong format',
      rejectionReason: 'wrong_format',
    });
    expect(quickRejectRequest('no_share', ' ').feedback).toBe('no_share');
  });

  it('knows the preset reasons', () => {
    expect(isRejectionReason('irrelevant_evidence')).toBe(true);
    expect(isRejectionReason('because')).toBe(false);
  });
});
