import { z } from 'zod';
import { FIELD_MESSAGES } from './field-messages';
import { oneTimeCodeSchema, recoveryCodeSchema } from './schemas';

/** One signed-in session of an account, as its owner and the admins see it. */
export interface SessionDto {
  id: string;
  /** the session of the request that asked */
  current: boolean;
  createdAt: string;
  /** moved forward at most once a minute */
  lastSeenAt: string;
  userAgent: string | null;
  /** the client's address as the server saw it (behind TRUST_PROXY, the proxy's last hop) */
  ip: string | null;
}

/** What an admin sees of a user's sign-in security on the user's detail screen. */
export interface UserSecurityDto {
  twoFactorEnabled: boolean;
  sessions: SessionDto[];
}

/** GET /api/users/me/two-factor: whether it is on, and whether this account must turn it on. */
export interface TwoFactorStatusDto {
  enabled: boolean;
  /** an admin while the setting requires two-factor of admins */
  required: boolean;
}

/** POST /api/users/me/two-factor/setup's reply: the secret to enter, and as a URL for a QR code. */
export interface TwoFactorSetupDto {
  secret: string;
  otpauthUrl: string;
}

const currentPassword = z
  .string({ error: FIELD_MESSAGES.currentPasswordRequired })
  .min(1, FIELD_MESSAGES.currentPasswordRequired)
  .max(200, FIELD_MESSAGES.tooLong);

/** POST /api/users/me/two-factor/setup */
export const twoFactorSetupSchema = z.object({ currentPassword });

/** POST /api/users/me/two-factor/enable: a code of the secret being set up */
export const twoFactorEnableSchema = z.object({
  code: oneTimeCodeSchema.refine((v) => v !== undefined, FIELD_MESSAGES.codeInvalid),
});

/** POST /api/users/me/two-factor/disable: the password and a current code (or a recovery code) */
export const twoFactorDisableSchema = z
  .object({ currentPassword, code: oneTimeCodeSchema, recoveryCode: recoveryCodeSchema })
  .refine((v) => v.code !== undefined || v.recoveryCode !== undefined, {
    message: FIELD_MESSAGES.codeRequired,
    path: ['code'],
  });
