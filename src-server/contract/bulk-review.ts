import { z } from 'zod';
import { ERROR_MESSAGES } from './errors';
import { checkReviewRequest, type ReviewRequest } from './review';
import { type RuleResult, ruleSchema } from './rules';
import { FIELD_MESSAGES, fieldErrors } from './schemas';
import { checkWithdrawalRejection } from './withdrawals';

/** At most this many items per bulk review (a page, or everything matching the filter up to it). */
export const MAX_BULK_IDS = 500;

/** What happened to one item of a bulk review. */
export const BULK_RESULTS = [
  'approved',
  'rejected',
  'already_reviewed',
  'not_found',
  'own_item',
  'user_banned',
  'failed',
] as const;
export type BulkResult = (typeof BULK_RESULTS)[number];

/** The reply of PUT /api/admin/submissions/review and PUT /api/admin/withdraws/review. */
export interface BulkReviewDto {
  results: { _id: string; result: BulkResult }[];
  /** how many items had each result */
  counts: Partial<Record<BulkResult, number>>;
}

/** `ids`: 1 to 500 ids (duplicates are decided once). */
export const bulkIdsSchema = z
  .array(
    z
      .string({ error: FIELD_MESSAGES.invalidValue })
      .min(1, FIELD_MESSAGES.invalidValue)
      .max(64, FIELD_MESSAGES.tooLong),
    { error: FIELD_MESSAGES.bulkIdsRange },
  )
  .min(1, FIELD_MESSAGES.bulkIdsRange)
  .max(MAX_BULK_IDS, FIELD_MESSAGES.bulkIdsRange);

/**
 * PUT /api/admin/withdraws/review: approve, or reject with one reason (refunded), each pending
 * withdrawal of `ids` on its own.
 */
export const bulkWithdrawalsSchema = z.object({
  ids: bulkIdsSchema,
  status: z.enum(['approved', 'rejected'], { error: FIELD_MESSAGES.invalidValue }),
  reason: z.unknown().optional(),
});

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The ids of a bulk body: a broken rule is reported on `ids` itself, whichever item broke it. */
function checkIds(input: Record<string, unknown>): RuleResult<string[]> {
  const parsed = bulkIdsSchema.safeParse(input.ids);
  if (parsed.success) return { ok: true, value: parsed.data };
  const message = parsed.error.issues[0]?.message ?? ERROR_MESSAGES.validation_error;
  return { ok: false, problem: { code: 'validation_error', field: 'ids', message } };
}

/** A bulk review of proofs, checked: the ids, then one verdict for all of them. */
export interface BulkSubmissionsReview {
  ids: string[];
  review: ReviewRequest;
}

/**
 * PUT /api/admin/submissions/review: `{ ids, status, feedback, rejectionReason, feedbackCode? }`,
 * the verdict checked once by the single review's rules.
 */
export const bulkSubmissionsReviewSchema = ruleSchema((body): RuleResult<BulkSubmissionsReview> => {
  const input = isRecord(body) ? body : {};
  const ids = checkIds(input);
  if (!ids.ok) return ids;
  const { ids: _ids, ...verdict } = input;
  const review = checkReviewRequest(verdict);
  return review.ok ? { ok: true, value: { ids: ids.value, review: review.value } } : review;
});

/** A bulk review of withdrawals, checked: the reason is there (trimmed) exactly for a rejection. */
export type BulkWithdrawalsReview =
  | { ids: string[]; status: 'approved' }
  | { ids: string[]; status: 'rejected'; reason: string };

/** PUT /api/admin/withdraws/review: `{ ids, status, reason }` (the reason only for a rejection). */
export const bulkWithdrawalsReviewSchema = ruleSchema((body): RuleResult<BulkWithdrawalsReview> => {
  const input = isRecord(body) ? body : {};
  const ids = checkIds(input);
  if (!ids.ok) return ids;
  const parsed = bulkWithdrawalsSchema.safeParse(input);
  if (!parsed.success) {
    const [field = '_', message = ERROR_MESSAGES.validation_error] =
      Object.entries(fieldErrors(parsed.error))[0] ?? [];
    return { ok: false, problem: { code: 'validation_error', field, message } };
  }
  if (parsed.data.status === 'approved') return { ok: true, value: { ids: ids.value, status: 'approved' } };
  const rejection = checkWithdrawalRejection({ reason: input.reason });
  if (!rejection.ok) return rejection;
  return { ok: true, value: { ids: ids.value, status: 'rejected', reason: rejection.value.reason } };
});
