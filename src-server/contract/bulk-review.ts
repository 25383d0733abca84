import { z } from 'zod';
import { FIELD_MESSAGES } from './schemas';

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
