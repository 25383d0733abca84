import type {
  BulkResult,
  BulkReviewDto,
  BulkSubmissionsReview,
  BulkWithdrawalsReview,
} from '../../contract/bulk-review';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { type MoneyReply, runClaimed } from '../money/idempotency';
import type { IdempotencyScope } from '../money/idempotency.repository';
import { reviewSubmission } from '../submissions/review.service';
import { approveWithdrawal, rejectWithdrawal } from '../withdrawals/admin-withdrawals.service';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'push' | 'mail'>;

/** An item's outcome from the single-item move's reply or refusal. */
function outcome(err: unknown): BulkResult {
  if (err instanceof AppError) {
    if (err.code === 'already_reviewed') return 'already_reviewed';
    if (err.code === 'own_item') return 'own_item';
    if (err.code === 'user_banned') return 'user_banned';
    if (
      err.code === 'submission_not_found' ||
      err.code === 'withdrawal_not_found' ||
      err.code === 'user_not_found'
    )
      return 'not_found';
  }
  return 'failed';
}

/**
 * Decides each id on its own with the single-item move (its own transaction, its conditional
 * pending -> decided update, its ledger row, its notification), one after the other: an item
 * that fails is reported and the others go on; an item already decided (by a racing single
 * review, another bulk run or a replay) is `already_reviewed` and moves nothing.
 */
async function each(
  ids: readonly string[],
  decided: 'approved' | 'rejected',
  move: (id: string) => Promise<MoneyReply>,
): Promise<BulkReviewDto> {
  const results: BulkReviewDto['results'] = [];
  const counts: BulkReviewDto['counts'] = {};
  for (const id of new Set(ids)) {
    let result: BulkResult;
    try {
      const reply = await move(id);
      result = reply.status === 200 ? decided : 'failed';
    } catch (err) {
      result = outcome(err);
    }
    results.push({ _id: id, result });
    counts[result] = (counts[result] ?? 0) + 1;
  }
  return { results, counts };
}

/**
 * With an Idempotency-Key, the key is claimed before any item runs (runClaimed, the single-item
 * routes' claim): a concurrent or later request with the key and another body is 422
 * `idempotency_key_reused` and decides nothing, the same body gets the first run's reply (or 409
 * `idempotency_conflict` while it still runs). The items are safe without a key too (each is
 * decided once), so the key only spares the second run and keeps its reply honest.
 */
function remembered(
  deps: Deps,
  scope: IdempotencyScope | null,
  run: () => Promise<BulkReviewDto>,
): Promise<MoneyReply> {
  return runClaimed(deps.db, scope, deps.clock, async () => ({ status: 200, data: await run() }));
}

/** PUT /api/admin/submissions/review: each id decided with the one verdict the route checked. */
export async function bulkReviewSubmissions(
  deps: Deps,
  adminId: string,
  { ids, review }: BulkSubmissionsReview,
  scope: IdempotencyScope | null,
): Promise<MoneyReply> {
  return remembered(deps, scope, () =>
    each(ids, review.status, (id) => reviewSubmission(deps, adminId, id, review, null)),
  );
}

/** PUT /api/admin/withdraws/review: each id approved, or rejected with the one reason (refunded). */
export async function bulkReviewWithdrawals(
  deps: Deps,
  adminId: string,
  body: BulkWithdrawalsReview,
  scope: IdempotencyScope | null,
): Promise<MoneyReply> {
  return remembered(deps, scope, () =>
    each(body.ids, body.status, (id) =>
      body.status === 'approved'
        ? approveWithdrawal(deps, adminId, id, null)
        : rejectWithdrawal(deps, adminId, id, { reason: body.reason }, null),
    ),
  );
}
