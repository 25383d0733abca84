import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from './constants';
import { emailSchema, FIELD_MESSAGES } from './schemas';

/** The languages the app speaks: an account's mails are written in the one it chose. */
export const USER_LANGUAGES = ['tr', 'en'] as const;
export type UserLanguage = (typeof USER_LANGUAGES)[number];

/** How long a password-reset link works. */
export const PASSWORD_RESET_MINUTES = 30;
/** How long an address-verification link works. */
export const EMAIL_VERIFY_HOURS = 48;

export const languageSchema = z.enum(USER_LANGUAGES, { error: FIELD_MESSAGES.invalidValue });

// a token is 32 bytes in base64url (43 characters); anything far longer is not one of ours
const tokenSchema = z
  .string({ error: FIELD_MESSAGES.invalidValue })
  .trim()
  .min(1, FIELD_MESSAGES.invalidValue)
  .max(200, FIELD_MESSAGES.tooLong);

/** POST /api/auth/forgot-password */
export const forgotPasswordSchema = z.object({ email: emailSchema });

/** POST /api/auth/reset-password */
export const resetPasswordSchema = z.object({
  token: tokenSchema,
  password: z
    .string({ error: FIELD_MESSAGES.passwordRequired })
    .min(1, FIELD_MESSAGES.passwordRequired)
    .min(MIN_PASSWORD_LENGTH, FIELD_MESSAGES.passwordTooShort)
    .max(200, FIELD_MESSAGES.tooLong),
  rememberMe: z.boolean({ error: FIELD_MESSAGES.invalidValue }).optional().default(false),
});

/** POST /api/auth/verify-email */
export const verifyEmailSchema = z.object({ token: tokenSchema });

/** GET /api/auth/mail-status: whether the site can send mail at all. */
export interface MailStatusDto {
  configured: boolean;
}
