import { z } from 'zod';
import { CATEGORIES, DIFFICULTIES, PROOF_TYPES, REWARD_RANGES, TASK_SORTS, TASK_STATUSES } from './constants';
import { MIN_SECONDS } from './fraud';
import { tlToKurus } from './money';
import { FIELD_MESSAGES } from './schemas';

/** Field messages of the task form, in English; the web app translates them. */
export const TASK_FIELD_MESSAGES = {
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
  rewardRequired: 'Reward is required',
  rewardInvalid: 'Reward must be at least 0.01 with at most two decimals',
  invalidUrl: 'The task link must start with http:// or https://',
  maxCompletionsInvalid: 'Max completions must be a whole number of at least 1',
  maxCompletionsBelowTaken: 'Max completions cannot be lower than the number of users already taking part',
  deadlineRequired: 'Deadline is required',
  deadlineInvalid: 'Please enter a valid date',
  deadlinePast: 'Deadline must be after today',
  timeLimitInvalid: 'The time limit must be a whole number of minutes from 5 to 10,080 (7 days)',
  fieldRequired: 'This field is required',
  ownerStatusNotAllowed: 'Choose active, completed or cancelled: only an admin can make a task inactive',
  invalidValue: FIELD_MESSAGES.invalidValue,
  tooLong: FIELD_MESSAGES.tooLong,
  tooMany: 'Too many entries',
} as const;
const M = TASK_FIELD_MESSAGES;

/** Turkey has used UTC+3 all year since 2016: a date-only deadline ends at 23:59:59.999 there. */
export const TURKEY_UTC_OFFSET_HOURS = 3;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A deadline from the form ('2026-12-31', the end of that day in Turkey) or an ISO date-time,
 * as the ISO text the database stores; null when it is not a real date between 2000 and 9999.
 */
export function parseDeadline(value: string): string | null {
  const day = DATE_ONLY.exec(value);
  let ms: number;
  if (day) {
    const [y, mo, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const utc = Date.UTC(y, mo - 1, d);
    const check = new Date(utc);
    if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d)
      return null;
    ms = utc + 86_400_000 - 1 - TURKEY_UTC_OFFSET_HOURS * 3_600_000;
  } else if (DATE_TIME.test(value)) {
    ms = Date.parse(value);
  } else return null;
  if (!Number.isFinite(ms)) return null;
  const year = new Date(ms).getUTCFullYear();
  return year >= 2000 && year <= 9999 ? new Date(ms).toISOString() : null;
}

/** The calendar day ('YYYY-MM-DD') of an instant in Turkey. */
export function turkeyDay(instant: Date | string): string {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  return new Date(ms + TURKEY_UTC_OFFSET_HOURS * 3_600_000).toISOString().slice(0, 10);
}

/**
 * The automatic-comment rule of the task form: lines trimmed, blank ones dropped, duplicates
 * removed. `removed` is how many entries were dropped, for the form's notice.
 */
export function normalizeComments(lines: readonly string[]): { comments: string[]; removed: number } {
  const seen = new Set<string>();
  for (const line of lines) {
    const text = line.trim();
    if (text) seen.add(text);
  }
  return { comments: [...seen], removed: lines.length - seen.size };
}

const blankToUndefined = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;
const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const linesOf = (v: unknown) => (typeof v === 'string' ? v.split(/\r?\n/) : v);

const title = z.string({ error: M.titleRequired }).trim().min(1, M.titleRequired).max(200, M.tooLong);
const description = z
  .string({ error: M.descriptionRequired })
  .trim()
  .min(1, M.descriptionRequired)
  .max(10_000, M.tooLong);
const reward = z
  .number({
    error: (iss) => (iss.input === undefined || iss.input === null ? M.rewardRequired : M.rewardInvalid),
  })
  .refine((v) => v >= 0.01 && tlToKurus(v) !== null, M.rewardInvalid)
  .transform((v) => tlToKurus(v) ?? 0);
const taskLink = z.preprocess(
  (v) => (typeof v === 'string' ? blankToUndefined(v.trim()) : blankToUndefined(v)),
  z
    .string({ error: M.invalidUrl })
    .max(2000, M.tooLong)
    .regex(/^https?:\/\/\S+$/i, M.invalidUrl)
    .optional(),
);
const maxCompletions = z
  .number({ error: M.maxCompletionsInvalid })
  .int(M.maxCompletionsInvalid)
  .min(1, M.maxCompletionsInvalid)
  .max(1_000_000, M.maxCompletionsInvalid);
const deadline = z
  .string({ error: M.deadlineInvalid })
  .trim()
  .refine((v) => parseDeadline(v) !== null, M.deadlineInvalid)
  .transform((v) => parseDeadline(v) ?? '');
const optionalDeadline = z.preprocess(blankToUndefined, deadline.optional());
const comments = z.preprocess(
  linesOf,
  z
    .array(z.string({ error: M.invalidValue }).max(1000, M.tooLong), { error: M.invalidValue })
    .max(5000, M.tooMany)
    .transform(normalizeComments),
);
const list = z.preprocess(
  linesOf,
  z
    .array(z.string({ error: M.invalidValue }).max(1000, M.tooLong), { error: M.invalidValue })
    .max(100, M.tooMany)
    .transform((items) => items.map((s) => s.trim()).filter(Boolean)),
);
const estimatedTime = z.preprocess(
  blankToUndefined,
  z.number({ error: M.invalidValue }).int(M.invalidValue).min(0, M.invalidValue).max(100_000).optional(),
);
/** Seconds from start to proof below which a proof is "too fast"; blank derives it. */
const minSeconds = z.preprocess(
  blankToUndefined,
  z
    .number({ error: M.invalidValue })
    .int(M.invalidValue)
    .min(MIN_SECONDS.min, M.invalidValue)
    .max(MIN_SECONDS.max, M.invalidValue)
    .optional(),
);
/** Minutes a started task may take before it expires. */
export const TIME_LIMIT_MINUTES = { min: 5, max: 10_080, default: 60 } as const;
const timeLimitMinutes = z.preprocess(
  blankToUndefined,
  z
    .number({ error: M.timeLimitInvalid })
    .int(M.timeLimitInvalid)
    .min(TIME_LIMIT_MINUTES.min, M.timeLimitInvalid)
    .max(TIME_LIMIT_MINUTES.max, M.timeLimitInvalid)
    .optional(),
);
const category = z.enum(CATEGORIES, { error: M.invalidValue });
const difficulty = z.enum(DIFFICULTIES, { error: M.invalidValue });
const status = z.enum(TASK_STATUSES, { error: M.invalidValue });
const requiredProof = z.enum(PROOF_TYPES, { error: M.invalidValue });

/** POST /api/tasks (admins): checked in the form's order, with the form's defaults. */
export const taskCreateSchema = z.object({
  title,
  description,
  reward,
  taskLink,
  maxCompletions,
  category: category.default('social_media'),
  difficulty: difficulty.default('easy'),
  status: status.default('active'),
  requiredProof: requiredProof.default('screenshot'),
  deadline: optionalDeadline,
  automaticComments: comments.optional(),
  steps: list.optional(),
  requirements: list.optional(),
  estimatedTime,
  timeLimitMinutes,
  minSeconds,
  isFeatured: z.boolean({ error: M.invalidValue }).optional(),
});
export type TaskCreateInput = z.input<typeof taskCreateSchema>;

/**
 * PUT /api/tasks/{id} by an admin: only the fields sent change. `deadline: ''` or null removes
 * the deadline. `usedComments` may be sent back but is ignored: given-out comments never change.
 */
export const taskAdminUpdateSchema = z.object({
  title: title.optional(),
  description: description.optional(),
  reward: reward.optional(),
  // nullable, not a union with null: a union answers a bad value with zod's bare "Invalid input"
  taskLink: z.preprocess(blankToNull, taskLink.nullable()),
  maxCompletions: maxCompletions.optional(),
  category: category.optional(),
  difficulty: difficulty.optional(),
  status: status.optional(),
  requiredProof: requiredProof.optional(),
  deadline: z.preprocess(blankToNull, deadline.nullable().optional()),
  automaticComments: comments.optional(),
  steps: list.optional(),
  requirements: list.optional(),
  estimatedTime: z.preprocess(blankToNull, estimatedTime.nullable()),
  timeLimitMinutes,
  /** null or blank: derived from estimatedTime again */
  minSeconds: z.preprocess(blankToNull, minSeconds.nullable()),
  isFeatured: z.boolean({ error: M.invalidValue }).optional(),
});
export type TaskAdminUpdate = z.output<typeof taskAdminUpdateSchema>;

/** The statuses the owner edit screen offers. */
export const OWNER_TASK_STATUSES = ['active', 'completed', 'cancelled'] as const;

const required = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === undefined || v === null || v === '' ? undefined : v), schema);

/** PUT /api/tasks/{id} by the task's creator who is not an admin: every field required. */
export const taskOwnerUpdateSchema = z.object({
  title,
  description,
  reward,
  taskLink,
  maxCompletions,
  category: required(z.enum(CATEGORIES, { error: M.fieldRequired })),
  difficulty: required(z.enum(DIFFICULTIES, { error: M.fieldRequired })),
  // a status sent but not offered (inactive is the admin's) says so, not "required"
  status: required(
    z.enum(OWNER_TASK_STATUSES, {
      error: (iss) => (iss.input === undefined ? M.fieldRequired : M.ownerStatusNotAllowed),
    }),
  ),
  requiredProof: required(z.enum(PROOF_TYPES, { error: M.fieldRequired })),
  deadline: required(z.string({ error: M.deadlineRequired }).pipe(deadline)),
  automaticComments: comments.optional(),
  steps: list.optional(),
  requirements: list.optional(),
  estimatedTime,
  timeLimitMinutes,
});

export const taskFeatureSchema = z.object({
  isFeatured: z.boolean({ error: M.invalidValue }),
});

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (v === 'all' ? undefined : blankToUndefined(v)),
    z.enum(values, { error: M.invalidValue }).optional(),
  );
const flag = z
  .preprocess(blankToUndefined, z.enum(['1', 'true', '0', 'false']).optional())
  .transform((v) => v === '1' || v === 'true');

/** Query pages share these: page from 1, limit 1..100. */
export const pageQuery = {
  page: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(1)),
  limit: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(100).default(20)),
};

/**
 * GET /api/tasks. Admins see every task (any status, past deadline) with `all=1` or a
 * `status`; everyone else sees active tasks within their deadline, featured first.
 */
export const taskListQuerySchema = z.object({
  q: z.preprocess(blankToUndefined, z.string().trim().max(200, M.tooLong).optional()),
  category: optionalEnum(CATEGORIES),
  difficulty: optionalEnum(DIFFICULTIES),
  rewardRange: optionalEnum(REWARD_RANGES),
  sort: z.preprocess(blankToUndefined, z.enum(TASK_SORTS, { error: M.invalidValue }).default('newest')),
  status: optionalEnum(TASK_STATUSES),
  all: flag,
  ...pageQuery,
});
export type TaskListQuery = z.output<typeof taskListQuerySchema>;

export type { CommentStats, TaskDto, TaskSaveReply, UserTaskDto, UserTaskSubmissionDto } from './task-dtos';
