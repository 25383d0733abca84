import { z } from 'zod';
import type { AppealDto } from './appeals';
import type { FeedbackCode, ProofType } from './constants';
import { REVIEW_STATUSES, type ReviewStatus } from './constants';
import type { FlagDto } from './fraud';
import { FIELD_MESSAGES } from './schemas';
import { pageQuery } from './tasks';

export const SUBMISSION_FIELD_MESSAGES = {
  taskRequired: 'Task is required',
  tooLong: FIELD_MESSAGES.tooLong,
  proofUrlRequired: 'Please enter the link to your proof',
  proofUrlInvalid: 'The link must start with http:// or https://',
  proofCodeLength: 'Please enter the code: 1 to 200 characters',
  proofTextLength: 'Please write your proof: 10 to 5,000 characters',
  proofNotTaken: 'This task does not take this kind of proof',
} as const;

/** The limits of a proof's text by its task's requiredProof. */
export const PROOF_TEXT_LIMITS = { code: { min: 1, max: 200 }, text: { min: 10, max: 5000 } } as const;
export const MAX_PROOF_URL = 2000;

/** A proof as its task's requiredProof asks for it; null fields are not taken by the type. */
export interface ProofInput {
  url: string | null;
  text: string | null;
}

/**
 * The proof fields of a submission checked against its task's requiredProof: screenshot takes
 * the image (checked apart), link an http(s) `proofUrl`, code a `proofText` of 1 to 200
 * characters, text one of 10 to 5,000, none nothing. A field the type does not take is refused.
 * Returns the fields' errors, or the proof. Shared by the server and the proof form.
 */
export function checkProof(
  type: ProofType,
  input: { proofUrl?: unknown; proofText?: unknown; hasImage: boolean },
): { ok: true; proof: ProofInput } | { ok: false; errors: Record<string, string> } {
  const M = SUBMISSION_FIELD_MESSAGES;
  const errors: Record<string, string> = {};
  const url = typeof input.proofUrl === 'string' ? input.proofUrl.trim() : '';
  const text = typeof input.proofText === 'string' ? input.proofText.trim() : '';
  const takes = {
    image: type === 'screenshot',
    url: type === 'link',
    text: type === 'code' || type === 'text',
  };
  if (input.hasImage && !takes.image) errors.proofImage = M.proofNotTaken;
  if (url && !takes.url) errors.proofUrl = M.proofNotTaken;
  if (text && !takes.text) errors.proofText = M.proofNotTaken;
  if (takes.url) {
    if (!url) errors.proofUrl = M.proofUrlRequired;
    else if (!isHttpUrl(url)) errors.proofUrl = M.proofUrlInvalid;
  }
  if (type === 'code' || type === 'text') {
    const { min, max } = PROOF_TEXT_LIMITS[type];
    const length = [...text].length;
    if (length < min || length > max)
      errors.proofText = type === 'code' ? M.proofCodeLength : M.proofTextLength;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, proof: { url: takes.url ? url : null, text: takes.text ? text : null } };
}

function isHttpUrl(value: string): boolean {
  if (value.length > MAX_PROOF_URL || /\s/.test(value)) return false;
  try {
    const parsed = new URL(value);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/** The longest description a submission may carry. */
export const MAX_SUBMISSION_DESCRIPTION = 2000;

/** The text fields of POST /api/submissions (multipart, next to the `proofImage` file). */
export const submissionFieldsSchema = z.object({
  task: z
    .string({ error: SUBMISSION_FIELD_MESSAGES.taskRequired })
    .trim()
    .min(1, SUBMISSION_FIELD_MESSAGES.taskRequired)
    .max(200, SUBMISSION_FIELD_MESSAGES.taskRequired),
  description: z
    .string()
    .trim()
    .max(MAX_SUBMISSION_DESCRIPTION, SUBMISSION_FIELD_MESSAGES.tooLong)
    .optional()
    .transform((v) => (v ? v : null)),
});
export type SubmissionFields = z.output<typeof submissionFieldsSchema>;

const statusFilter = z.preprocess(
  (v) => (v === '' || v === 'all' || v === null ? undefined : v),
  z.enum(REVIEW_STATUSES, { error: FIELD_MESSAGES.invalidValue }).optional(),
);

/** GET /api/submissions/user: the user's own, newest first. */
export const mySubmissionsQuerySchema = z.object({ status: statusFilter });

/** GET /api/submissions (admins): `q` searches the task title and the user's name or email. */
const searchQuery = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string().trim().max(200, FIELD_MESSAGES.tooLong).optional(),
);

const idFilter = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .string()
    .regex(/^[0-9a-f]{24}$/, FIELD_MESSAGES.invalidValue)
    .optional(),
);

/** `flagged=true`: only items with a fraud signal not dismissed. */
export const flaggedFilter = z.preprocess(
  (v) => (v === '' || v === 'false' ? undefined : v),
  z
    .enum(['true'], { error: FIELD_MESSAGES.invalidValue })
    .transform(() => true)
    .optional(),
);

/**
 * The orders of the admins' submission list: oldest first (the queue's order, fair to the worker
 * who has waited longest), newest first, the highest reward first, the flagged first (each then
 * oldest first).
 */
export const SUBMISSION_SORTS = ['oldest', 'newest', 'reward', 'flagged'] as const;
export type SubmissionSort = (typeof SUBMISSION_SORTS)[number];

/** The page sizes the review screen offers (the server takes any size from 1 to 100). */
export const SUBMISSION_PAGE_SIZES = [10, 25, 50, 100] as const;

/** Without a sort the API answers newest first, as it always has; the review screen asks for its own. */
const submissionSort = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.enum(SUBMISSION_SORTS, { error: FIELD_MESSAGES.invalidValue }).default('newest'),
);

export const submissionListQuerySchema = z.object({
  status: statusFilter,
  sort: submissionSort,
  q: searchQuery,
  /** only the proofs whose appeal waits for a decision */
  appeal: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['pending'], { error: FIELD_MESSAGES.invalidValue }).optional(),
  ),
  /** one task's proofs, one worker's proofs (ids) */
  task: idFilter,
  user: idFilter,
  /** only the proofs with a fraud signal not dismissed (theirs or their worker's account's) */
  flagged: flaggedFilter,
  ...pageQuery,
});

/** GET /api/admin/submissions/pending-ids: the review screen's search. */
export const pendingIdsQuerySchema = z.object({
  q: searchQuery,
  /** the list's order, so "select all matching" ticks the first ones the admin sees */
  sort: submissionSort,
  task: idFilter,
  user: idFilter,
  flagged: flaggedFilter,
});

/** A submission as its owner and admins see it. Money in TL. */
export interface SubmissionDto {
  _id: string;
  status: ReviewStatus;
  createdAt: string;
  updatedAt: string;
  reviewedAt: string | null;
  description: string | null;
  feedback: string | null;
  /** the system's fixed text (FEEDBACK_CODES), to be shown in the reader's language */
  feedbackCode: FeedbackCode | null;
  /** one of REJECTION_REASONS when rejected */
  rejectionReason: string | null;
  /** the task's reward when the proof was sent: what approval pays */
  reward: number;
  /** approved by the system after the auto-approval days, not by an admin */
  autoApproved: boolean;
  /** the worker's appeal of its rejection, if any */
  appeal: AppealDto | null;
  /** a rejection its worker may still appeal (rejected, not restarted, no appeal, within 7 days) */
  appealable: boolean;
  /** while pending and auto-approval is on: when the system will approve it */
  autoApproveAt: string | null;
  /** the task's requiredProof when it was sent: which of the proof fields it has */
  proofType: ProofType;
  /** a link proof (http or https) */
  proofUrl: string | null;
  /** a code or a text proof */
  proofText: string | null;
  /** server-relative, signed, valid for about 10 minutes; null when there is no file */
  proofImageUrl: string | null;
  /** A signed URL of the proof's small WebP thumbnail (320 px), null until it has one. */
  proofThumbnailUrl: string | null;
  task: { _id: string; title: string; reward: number };
  user: { _id: string; name: string };
  /** admins only: its fraud signals and its worker's account's; never sent to workers */
  flags?: FlagDto[];
}
