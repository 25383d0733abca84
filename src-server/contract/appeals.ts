import { z } from 'zod';
import { FIELD_MESSAGES } from './schemas';

/** A rejection may be appealed this many days after it. */
export const APPEAL_WINDOW_DAYS = 7;
export const APPEAL_MESSAGE = { min: 10, max: 1000 } as const;
export const APPEAL_RESPONSE_MAX = 1000;

export const APPEAL_FIELD_MESSAGES = {
  appealMessageLength: 'Please explain your appeal: 10 to 1,000 characters',
  appealResponseRequired: 'Please write a response to the worker: up to 1,000 characters',
  appealDecisionInvalid: 'Choose to overturn or uphold the rejection',
} as const;
const M = APPEAL_FIELD_MESSAGES;

/** POST /api/submissions/{id}/appeal. */
export const appealSchema = z.object({
  message: z
    .string({ error: M.appealMessageLength })
    .trim()
    .refine(
      (v) => [...v].length >= APPEAL_MESSAGE.min && [...v].length <= APPEAL_MESSAGE.max,
      M.appealMessageLength,
    ),
});

/** PUT /api/admin/submissions/{id}/appeal. */
export const appealDecisionSchema = z.object({
  decision: z.enum(['overturn', 'uphold'], { error: M.appealDecisionInvalid }),
  response: z
    .string({ error: M.appealResponseRequired })
    .trim()
    .min(1, M.appealResponseRequired)
    .max(APPEAL_RESPONSE_MAX, FIELD_MESSAGES.tooLong),
});
export type AppealDecision = z.output<typeof appealDecisionSchema>;

/** An appeal as its worker and the admins see it. */
export interface AppealDto {
  message: string;
  createdAt: string;
  status: 'pending' | 'upheld' | 'overturned';
  decidedAt: string | null;
  response: string | null;
}

/** The columns of a stored submission that decide whether it may be appealed. */
export interface AppealableRow {
  status: string;
  appeal_status: string | null;
  record_status: string;
  is_latest: number | bigint | string;
  reviewed_at: string | null;
}

/**
 * A rejection its worker may still appeal: rejected, not appealed, the record not restarted
 * since (it is the record's newest proof, and the record is not back in progress or expired),
 * within APPEAL_WINDOW_DAYS of the rejection. Shared by the submission's and the task's replies, so
 * both say the same of one proof.
 */
export function isAppealable(row: AppealableRow, now: Date): boolean {
  if (row.status !== 'rejected' || row.appeal_status !== null || !row.reviewed_at) return false;
  if (row.record_status !== 'completed' || Number(row.is_latest) !== 1) return false;
  return now.getTime() - Date.parse(row.reviewed_at) <= APPEAL_WINDOW_DAYS * 86_400_000;
}
