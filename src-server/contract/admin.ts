import { z } from 'zod';
import {
  MIN_PASSWORD_LENGTH,
  PAGE_SIZES,
  PAYMENT_METHODS,
  ROLES,
  type Role,
  USER_STATUSES,
  type UserStatus,
} from './constants';
import { ERROR_MESSAGES, type ErrorCode } from './errors';
import { tlToKurus } from './money';
import { ruleSchema } from './rules';
import { FIELD_MESSAGES } from './schemas';
import type { SubmissionDto } from './submissions';
import type { UserDto } from './types';

/** Request and reply shapes of the admin panel ("Admin area"). */

const blankToUndefined = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

const pageNumber = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: FIELD_MESSAGES.invalidValue })
    .int(FIELD_MESSAGES.invalidValue)
    .min(1, FIELD_MESSAGES.invalidValue)
    .max(1_000_000, FIELD_MESSAGES.invalidValue)
    .default(1),
);
const pageLimit = (fallback: number, max = 100) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: FIELD_MESSAGES.invalidValue })
      .int(FIELD_MESSAGES.invalidValue)
      .min(1, FIELD_MESSAGES.invalidValue)
      .max(max, FIELD_MESSAGES.invalidValue)
      .default(fallback),
  );
const search = z.preprocess(
  blankToUndefined,
  z.string({ error: FIELD_MESSAGES.invalidValue }).trim().max(200, FIELD_MESSAGES.tooLong).optional(),
);

// ---- dashboard ----

/** GET /api/admin/stats. Growth: the last 30 days against the 30 before, 0 when those were empty. */
export interface AdminStatsDto {
  totalUsers: number;
  totalTasks: number;
  pendingSubmissions: number;
  /** appeals of rejections waiting for a decision */
  pendingAppeals: number;
  /** TL: the sum of every approved reward */
  totalRewards: number;
  userGrowthPercent: number;
  taskGrowthPercent: number;
  earningGrowthPercent: number;
  /**
   * True where the earlier 30 days had nothing and the last 30 have something: the percent is
   * 0 by the contract, and the screen shows the figure as new rather than as no change.
   */
  userGrowthNew: boolean;
  taskGrowthNew: boolean;
  earningGrowthNew: boolean;
  /**
   * The figures behind each growth: the last 30 days, the 30 before them, and the last 30 days
   * one by one (oldest first) for a small trend line. Rewards in TL.
   */
  trend: Record<'users' | 'tasks' | 'rewards', GrowthTrendDto>;
}

export interface GrowthTrendDto {
  current: number;
  previous: number;
  days: number[];
}

/** GET /api/admin/stats/today: since midnight in Turkey (UTC+3 all year). */
export interface TodayStatsDto {
  todayUsers: number;
  todaySubmissions: number;
  todayApproved: number;
  todayRejected: number;
}

/** A submission in the admin screens: the sender also carries their email. */
export type AdminSubmissionDto = Omit<SubmissionDto, 'user'> & {
  /**
   * The worker, with their account's standing: a banned account's proofs cannot be approved
   * (409 user_banned) and the reviewer sees why before trying; banReason is null unless banned.
   */
  user: { _id: string; name: string; email: string; status: UserStatus; banReason: string | null };
  /** the automatic comment the worker was given to post, so the reviewer can look for it */
  automaticComment: string | null;
};

/** GET /api/admin/submissions/recent?limit: default 5, at most 50. */
export const recentSubmissionsQuerySchema = z.object({
  limit: pageLimit(PAGE_SIZES.dashboardRecent, 50),
});

// ---- users ----

/** The user-list filter: a status, admins only, or users with a push id (oneSignalId or device_id). */
export const ADMIN_USER_FILTERS = ['all', 'active', 'suspended', 'banned', 'admin', 'push'] as const;
export type AdminUserFilter = (typeof ADMIN_USER_FILTERS)[number];

/** GET /api/admin/users: `q` searches the name and the email; newest first. */
export const adminUsersQuerySchema = z.object({
  q: search,
  status: z.preprocess(
    blankToUndefined,
    z.enum(ADMIN_USER_FILTERS, { error: FIELD_MESSAGES.invalidValue }).default('all'),
  ),
  page: pageNumber,
  limit: pageLimit(PAGE_SIZES.adminUsers),
});
export type AdminUsersQuery = z.output<typeof adminUsersQuerySchema>;

/** GET /api/admin/users/{id}/submissions and /withdrawals: one page, newest first. */
export const adminUserHistoryQuerySchema = z.object({
  page: pageNumber,
  limit: pageLimit(20),
});

/**
 * DELETE /api/admin/users/{id}?forfeit=true: the admin confirms that what the user holds (balance,
 * pending withdrawals, proofs and appeals) is settled and forfeited with the deletion.
 */
export const deleteUserQuerySchema = z.object({
  forfeit: z
    .enum(['true', 'false'], { error: FIELD_MESSAGES.invalidValue })
    .optional()
    .transform((v) => v === 'true'),
});

/** What a deletion found the user holding (the 409 user_has_money's `held`; balance in TL). */
export interface HeldByUserDto {
  balance: number;
  pendingWithdrawals: number;
  pendingSubmissions: number;
  pendingAppeals: number;
}

/** A row of the admin user list. Money in TL. */
export interface AdminUserSummaryDto {
  _id: string;
  name: string;
  email: string;
  phone: string | null;
  profileImage: string | null;
  role: Role;
  status: UserStatus;
  banReason: string | null;
  balance: number;
  totalEarned: number;
  createdAt: string;
  updatedAt: string;
  lastActive: string | null;
  oneSignalId: string | null;
  device_id: string | null;
}

/** GET/PUT /api/admin/users/{id}: the profile's fields plus `totalEarned` (= totalEarnings). */
export interface AdminUserDetailDto extends UserDto {
  totalEarned: number;
}

export const MAX_BAN_REASON_LENGTH = 500;

/** PUT /api/admin/users/{id}, checked. Absent optional fields stay as they are. */
export interface AdminUserUpdate {
  name: string;
  email: string;
  /** kuruş */
  balance?: number;
  role?: Role;
  status?: UserStatus;
  /** trimmed; null or '' clears it (a ban still needs one) */
  banReason?: string | null;
  /** a new password; absent, null or '' keeps the current one */
  password?: string;
}

export interface AdminUserProblem {
  code: ErrorCode;
  field: string;
  message: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const problem = (code: ErrorCode, field: string, message: string = ERROR_MESSAGES[code]) => ({
  ok: false as const,
  problem: { code, field, message },
});

const emailFormat = z.email();

/**
 * The user edit rules, in the order the form reports them: name and email required, a valid
 * email, a balance of TL >= 0 with at most two decimals, a known role and status, a non-blank
 * ban reason for a ban, and a new password of at least 6 characters. Shared by the server
 * (authoritative) and the edit modals (comfort).
 */
export function checkAdminUserUpdate(
  body: unknown,
): { ok: true; value: AdminUserUpdate } | { ok: false; problem: AdminUserProblem } {
  const input = isRecord(body) ? body : {};
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
  if (!name) return problem('name_email_required', 'name');
  if (!email) return problem('name_email_required', 'email');
  if (name.length > 100) return problem('validation_error', 'name', FIELD_MESSAGES.tooLong);
  if (email.length > 254) return problem('validation_error', 'email', FIELD_MESSAGES.tooLong);
  if (!emailFormat.safeParse(email).success) {
    return problem('validation_error', 'email', FIELD_MESSAGES.emailInvalid);
  }
  const value: AdminUserUpdate = { name, email };

  if (input.balance !== undefined && input.balance !== null) {
    const kurus = tlToKurus(input.balance);
    if (kurus === null) return problem('invalid_amount', 'balance');
    value.balance = kurus;
  }
  if (input.role !== undefined && input.role !== null) {
    const role = ROLES.find((r) => r === input.role);
    if (!role) return problem('validation_error', 'role', FIELD_MESSAGES.invalidValue);
    value.role = role;
  }
  if (input.status !== undefined && input.status !== null) {
    const status = USER_STATUSES.find((s) => s === input.status);
    if (!status) return problem('validation_error', 'status', FIELD_MESSAGES.invalidValue);
    value.status = status;
  }
  if (input.banReason !== undefined) {
    if (input.banReason !== null && typeof input.banReason !== 'string') {
      return problem('validation_error', 'banReason', FIELD_MESSAGES.invalidValue);
    }
    const reason = input.banReason?.trim() ?? '';
    if (reason.length > MAX_BAN_REASON_LENGTH) {
      return problem('validation_error', 'banReason', FIELD_MESSAGES.tooLong);
    }
    value.banReason = reason || null;
  }
  if (value.status === 'banned' && !value.banReason) return problem('ban_reason_required', 'banReason');

  if (input.password !== undefined && input.password !== null && input.password !== '') {
    if (typeof input.password !== 'string') {
      return problem('validation_error', 'password', FIELD_MESSAGES.invalidValue);
    }
    if (input.password.length < MIN_PASSWORD_LENGTH) {
      return problem('validation_error', 'password', FIELD_MESSAGES.passwordTooShort);
    }
    if (input.password.length > 200) return problem('validation_error', 'password', FIELD_MESSAGES.tooLong);
    value.password = input.password;
  }
  return { ok: true, value };
}

/** The body of PUT /api/admin/users/{id}, read through the user edit rules. */
export const adminUserUpdateSchema = ruleSchema(checkAdminUserUpdate);

// ---- settings ----

export const SETTINGS_FIELD_MESSAGES = {
  siteNameRequired: 'Site name is required',
  invalidUrl: 'Links must start with http:// or https://',
  minimumPayoutInvalid: 'The minimum payout must be 0 or more, with at most two decimals',
  minimumPayoutStep: 'The minimum payout must be a multiple of 5',
  methodsRequired: 'Choose at least one payment method',
  autoApproveDaysInvalid: 'Auto-approval takes 0 (off) to 30 days',
} as const;

/** The longest wait before a pending proof is approved by the system. */
export const MAX_AUTO_APPROVE_DAYS = 30;
const S = SETTINGS_FIELD_MESSAGES;

const text = (max: number) =>
  z.string({ error: FIELD_MESSAGES.invalidValue }).trim().max(max, FIELD_MESSAGES.tooLong);
const socialLink = z
  .string({ error: S.invalidUrl })
  .trim()
  .max(500, FIELD_MESSAGES.tooLong)
  .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), S.invalidUrl)
  .optional();
/** Only the URL of an image this server stored (what the upload routes set), or null to remove it. */
const storedImageUrl = z
  .string({ error: FIELD_MESSAGES.invalidValue })
  .regex(/^\/api\/files\/images\/[0-9a-f]{32}\.(png|jpg|ico)$/, FIELD_MESSAGES.invalidValue)
  .nullable()
  .optional();
const strict = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, { error: FIELD_MESSAGES.invalidValue });

/**
 * PUT /api/settings (admins): any subset of the sections, each with any subset of its fields;
 * the rest stays as stored. Unknown sections or fields are refused (422). `site.logo` and
 * `site.favicon` are set by their upload routes; here they can only be kept or removed (null).
 */
export const settingsUpdateSchema = strict({
  site: strict({
    name: text(100).min(1, S.siteNameRequired).optional(),
    description: strict({ tr: text(1000).optional(), en: text(1000).optional() }).optional(),
    logo: storedImageUrl,
    favicon: storedImageUrl,
  }).optional(),
  contact: strict({
    email: z
      .string({ error: FIELD_MESSAGES.emailInvalid })
      .trim()
      .toLowerCase()
      .max(254, FIELD_MESSAGES.tooLong)
      .refine((v) => v === '' || emailFormat.safeParse(v).success, FIELD_MESSAGES.emailInvalid)
      .optional(),
    phone: text(30)
      .refine((v) => v === '' || /^[+\d\s().-]+$/.test(v), FIELD_MESSAGES.invalidValue)
      .optional(),
    address: text(300).optional(),
  }).optional(),
  socialMedia: strict({
    facebook: socialLink,
    twitter: socialLink,
    instagram: socialLink,
    linkedin: socialLink,
  }).optional(),
  payment: strict({
    minimumPayout: z
      .number({ error: S.minimumPayoutInvalid })
      .max(1_000_000, S.minimumPayoutInvalid)
      .refine((v) => tlToKurus(v) !== null, S.minimumPayoutInvalid)
      // at least 0, in steps of 5 TL
      .refine((v) => (tlToKurus(v) ?? 0) % 500 === 0, S.minimumPayoutStep)
      .optional(),
    methods: z
      .array(z.enum(PAYMENT_METHODS, { error: FIELD_MESSAGES.invalidValue }), { error: S.methodsRequired })
      .min(1, S.methodsRequired)
      .max(10, FIELD_MESSAGES.invalidValue)
      .transform((list) => PAYMENT_METHODS.filter((m) => list.includes(m)))
      .optional(),
    // withdrawals only from accounts whose address was proved theirs by a mailed link
    requireVerifiedEmail: z.boolean({ error: FIELD_MESSAGES.invalidValue }).optional(),
  }).optional(),
  review: strict({
    autoApproveDays: z
      .number({ error: S.autoApproveDaysInvalid })
      .int(S.autoApproveDaysInvalid)
      .min(0, S.autoApproveDaysInvalid)
      .max(MAX_AUTO_APPROVE_DAYS, S.autoApproveDaysInvalid)
      .optional(),
  }).optional(),
  security: strict({
    requireAdminTwoFactor: z.boolean({ error: FIELD_MESSAGES.invalidValue }).optional(),
  }).optional(),
});
export type SettingsUpdateInput = z.input<typeof settingsUpdateSchema>;
export type SettingsUpdate = z.output<typeof settingsUpdateSchema>;
