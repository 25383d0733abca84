import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from './constants';
import { FIELD_MESSAGES } from './field-messages';

/**
 * Request schemas shared by the server (authoritative) and the web forms (comfort).
 * Field messages are the English texts users see; `FIELD_MESSAGE_KEYS` maps them to
 * locale keys so the web app can show them translated.
 */
export { FIELD_MESSAGES, type FieldMessageKey, fieldMessageKey } from './field-messages';

const optionalId = z
  .string({ error: FIELD_MESSAGES.invalidValue })
  .max(200, FIELD_MESSAGES.tooLong)
  .nullish()
  .transform((v) => (v ? v : null));

export const emailSchema = z
  .string({ error: FIELD_MESSAGES.emailRequired })
  .trim()
  .min(1, FIELD_MESSAGES.emailRequired)
  .max(254, FIELD_MESSAGES.tooLong)
  .pipe(z.email({ error: FIELD_MESSAGES.emailInvalid }))
  .transform((v) => v.toLowerCase());

const passwordSchema = z
  .string({ error: FIELD_MESSAGES.passwordRequired })
  .min(1, FIELD_MESSAGES.passwordRequired)
  .min(MIN_PASSWORD_LENGTH, FIELD_MESSAGES.passwordTooShort)
  .max(200, FIELD_MESSAGES.tooLong);

export const nameSchema = z
  .string({ error: FIELD_MESSAGES.nameRequired })
  .trim()
  .min(1, FIELD_MESSAGES.nameRequired)
  .max(100, FIELD_MESSAGES.tooLong);

export const registerSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: FIELD_MESSAGES.invalidValue }).max(200).optional(),
    device_id: optionalId,
    oneSignalId: optionalId,
    // the language of the screen it registered on: the account's mails are written in it
    language: z.enum(['tr', 'en'], { error: FIELD_MESSAGES.invalidValue }).optional().default('tr'),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
    message: FIELD_MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type RegisterInput = z.input<typeof registerSchema>;

/** A one-time code as typed: six digits, spaces allowed ("123 456"); blank counts as absent. */
export const oneTimeCodeSchema = z
  .string({ error: FIELD_MESSAGES.invalidValue })
  .max(20, FIELD_MESSAGES.tooLong)
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.union([z.literal(''), z.string().regex(/^\d{6}$/, FIELD_MESSAGES.codeInvalid)]))
  .optional()
  .transform((v) => v || undefined);

/** A recovery code as typed: letters and digits, dashes and spaces ignored; blank counts as absent. */
export const recoveryCodeSchema = z
  .string({ error: FIELD_MESSAGES.invalidValue })
  .max(40, FIELD_MESSAGES.tooLong)
  .transform((v) => v.replace(/[\s-]+/g, '').toLowerCase())
  .optional()
  .transform((v) => v || undefined);

export const loginSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  rememberMe: z.boolean({ error: FIELD_MESSAGES.invalidValue }).optional().default(false),
  device_id: optionalId,
  oneSignalId: optionalId,
  /** the second factor of an account with two-factor sign-in: a current code or a recovery code */
  code: oneTimeCodeSchema,
  recoveryCode: recoveryCodeSchema,
});
export type LoginInput = z.input<typeof loginSchema>;

/** Turn zod issues into the contract's `errors` map: first message per field, in schema order. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
