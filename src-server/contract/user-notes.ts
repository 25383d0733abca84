import { z } from 'zod';
import { FIELD_MESSAGES } from './field-messages';

/** The longest internal note, in characters. */
export const NOTE_MAX_LENGTH = 2000;
/** Notes one account may gather: a cap on what a runaway script (or a flood) can pile up. */
export const NOTES_PER_USER_MAX = 500;

/** POST /api/admin/users/{id}/notes: only the text; who, about whom and when are the server's. */
export const userNoteBodySchema = z.object({
  body: z
    .string({ error: FIELD_MESSAGES.invalidValue })
    .trim()
    .min(1, FIELD_MESSAGES.invalidValue)
    .max(NOTE_MAX_LENGTH, FIELD_MESSAGES.tooLong),
});

/** An admin's internal note on an account; the account itself never sees it. */
export interface UserNoteDto {
  _id: string;
  body: string;
  createdAt: string;
  /** the author as named when the note was written; null id: the author's row is gone */
  author: { _id: string | null; name: string | null };
}
