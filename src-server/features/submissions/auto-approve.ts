import { QUICK_APPROVE_FEEDBACK } from '../../contract/constants';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { getSettings } from '../settings/settings.service';
import { pendingOlderThan } from './review.repository';
import { LeftForAPerson, reviewSubmission } from './review.service';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'push' | 'mail'>;

const DAY_MS = 86_400_000;
/** How many proofs one pass approves at most (the next pass takes the rest). */
export const AUTO_APPROVE_BATCH = 200;

/** When a proof sent at `createdAt` is approved by the system, or null when auto-approval is off. */
export function autoApproveAt(createdAt: string, days: number): string | null {
  return days > 0 ? new Date(Date.parse(createdAt) + days * DAY_MS).toISOString() : null;
}

/**
 * Approves, as the system, the proofs still pending `review.autoApproveDays` after they were
 * sent (off at 0), except those that wait for a person: an admin's own proof (the four-eyes rule
 * has no second admin here), a banned or suspended account's, and a proof flagged for fraud, on
 * itself or its account, until the flag is dismissed. Each goes through the admins' own review (reviewSubmission with no admin):
 * its conditional pending -> approved, its reward in the ledger with no actor, its record, its
 * notification. A proof an admin decided meanwhile is `already_reviewed` and left as it is, so a
 * proof is paid once whoever gets there first. Returns how many it approved.
 */
export async function autoApproveDue(deps: Deps, limit = AUTO_APPROVE_BATCH): Promise<number> {
  const days = (await getSettings(deps.db)).review.autoApproveDays;
  if (!days) return 0;
  const cutoff = new Date(deps.clock().getTime() - days * DAY_MS).toISOString();
  let approved = 0;
  for (const { _id } of await pendingOlderThan(deps.db, cutoff, limit)) {
    try {
      await reviewSubmission(
        deps,
        null,
        _id,
        {
          status: 'approved',
          feedback: QUICK_APPROVE_FEEDBACK,
          rejectionReason: null,
          feedbackCode: 'task_completed',
        },
        null,
      );
      approved++;
    } catch (err) {
      // decided by an admin meanwhile, its user gone or banned, or waiting for a person
      if (!(err instanceof AppError) && !(err instanceof LeftForAPerson)) throw err;
    }
  }
  return approved;
}

/** One pass of the auto-approval: batch after batch while a batch comes back full. */
export async function autoApprovePass(
  deps: Deps,
  log: (line: string) => void,
): Promise<{ approved: number }> {
  let approved: number;
  let total = 0;
  do {
    approved = await autoApproveDue(deps);
    total += approved;
    if (approved > 0)
      log(`approved ${approved} proof${approved === 1 ? '' : 's'} left pending past the auto-approval days`);
  } while (approved === AUTO_APPROVE_BATCH);
  return { approved: total };
}
