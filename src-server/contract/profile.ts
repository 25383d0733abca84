import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from './constants';
import { FIELD_MESSAGES, nameSchema } from './schemas';

export const PROFILE_LIMITS = { phone: 30, address: 200, bio: 500 } as const;

/** Absent: unchanged; blank or null: cleared; otherwise trimmed text within the limit. */
function optionalText(max: number, pattern?: RegExp) {
  return z
    .string({ error: FIELD_MESSAGES.invalidValue })
    .trim()
    .max(max, FIELD_MESSAGES.tooLong)
    .refine((v) => !pattern || v === '' || pattern.test(v), FIELD_MESSAGES.invalidValue)
    .nullish()
    .transform((v) => (v === undefined ? undefined : v ? v : null));
}

/**
 * Body of PUT /api/users/me (JSON, or the text fields of the multipart form). Only these
 * fields can change; anything else sent (role, status, balance, email...) is ignored.
 */
export const updateProfileSchema = z
  .object({
    name: nameSchema,
    // blank means "keep the current password": the form always sends the field
    password: z
      .string({ error: FIELD_MESSAGES.invalidValue })
      .max(200, FIELD_MESSAGES.tooLong)
      .nullish()
      .refine((v) => !v || v.length >= MIN_PASSWORD_LENGTH, FIELD_MESSAGES.passwordTooShort)
      .transform((v) => (v ? v : undefined)),
    phone: optionalText(PROFILE_LIMITS.phone, /^[+\d\s().-]+$/),
    address: optionalText(PROFILE_LIMITS.address),
    bio: optionalText(PROFILE_LIMITS.bio),
    // asked for only with a new password (ASVS 2.1.6); checked against the stored hash by the server
    currentPassword: z
      .string({ error: FIELD_MESSAGES.invalidValue })
      .max(200, FIELD_MESSAGES.tooLong)
      .nullish()
      .transform((v) => (v ? v : undefined)),
    // the language of the account's mails; absent: unchanged
    language: z.enum(['tr', 'en'], { error: FIELD_MESSAGES.invalidValue }).optional(),
    // mails about reviews and payouts; a form field arrives as the text 'true' or 'false'
    emailNotifications: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
        error: FIELD_MESSAGES.invalidValue,
      })
      .optional(),
  })
  .refine((v) => !v.password || v.currentPassword !== undefined, {
    message: FIELD_MESSAGES.currentPasswordRequired,
    path: ['currentPassword'],
  });
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;
export type UpdateProfile = z.output<typeof updateProfileSchema>;

/** One item of GET /api/users/me/completed-tasks: an approved submission. */
export interface CompletedTaskDto {
  _id: string;
  task: { _id: string; title: string; reward: number };
  reward: number;
  approvedAt: string;
}
