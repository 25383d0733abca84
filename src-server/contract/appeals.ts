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

/** An appeal as its worker and the admins see it. */
export interface AppealDto {
  message: string;
  createdAt: string;
  status: 'pending' | 'upheld' | 'overturned';
  decidedAt: string | null;
  response: string | null;
}
