import {
  type BulkResult,
  type BulkReviewDto,
  bulkIdsSchema,
  bulkWithdrawalsSchema,
} from '../../contract/bulk-review';
import { ERROR_MESSAGES } from '../../contract/errors';
import { checkReviewRequest } from '../../contract/review';
import { fieldErrors } from '../../contract/schemas';
import { rejectWithdrawalSchema } from '../../contract/withdrawals';
import type { AppDeps } from '../../deps';
import { AppError, fail } from '../../http/app-error';
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

function parseIds(input: Record<string, unknown>): string[] {
  const parsed = bulkIdsSchema.safeParse(input.ids);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? ERROR_MESSAGES.validation_error;
    throw fail.validation({ ids: message });
  }
  return parsed.data;
}

/** PUT /api/admin/submissions/review: `{ ids, status, feedback, rejectionReason, feedbackCode? }`. */
export async function bulkReviewSubmissions(
  deps: Deps,
  adminId: string,
  body: Record<string, unknown>,
  scope: IdempotencyScope | null,
): Promise<MoneyReply> {
  const ids = parseIds(body);
  const { ids: _ids, ...verdict } = body;
  // the verdict is checked once, as the single review checks it
  const checked = checkReviewRequest(verdict);
  if (!checked.ok) throw fail.invalid(checked.problem.code, checked.problem.field, checked.problem.message);
  return remembered(deps, scope, () =>
    each(ids, checked.value.status, (id) => reviewSubmission(deps, adminId, id, verdict, null)),
  );
}

/** PUT /api/admin/withdraws/review: `{ ids, status, reason }` (reason for a rejection). */
export async function bulkReviewWithdrawals(
  deps: Deps,
  adminId: string,
  body: Record<string, unknown>,
  scope: IdempotencyScope | null,
): Promise<MoneyReply> {
  const ids = parseIds(body);
  const parsed = bulkWithdrawalsSchema.safeParse(body);
  if (!parsed.success) throw fail.validation(fieldErrors(parsed.error));
  const { status } = parsed.data;
  if (status === 'rejected') {
    const reason = rejectWithdrawalSchema.safeParse({ reason: body.reason });
    if (!reason.success) {
      const errors = fieldErrors(reason.error);
      if (errors.reason === ERROR_MESSAGES.reason_required) throw fail.invalid('reason_required', 'reason');
      throw fail.validation(errors);
    }
  }
  return remembered(deps, scope, () =>
    each(ids, status, (id) =>
      status === 'approved'
        ? approveWithdrawal(deps, adminId, id, null)
        : rejectWithdrawal(deps, adminId, id, { reason: body.reason }, null),
    ),
  );
}
