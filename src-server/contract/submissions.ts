import { z } from 'zod';
import type { FeedbackCode } from './constants';
import { REVIEW_STATUSES, type ReviewStatus } from './constants';
import { FIELD_MESSAGES } from './schemas';
import { pageQuery } from './tasks';

export const SUBMISSION_FIELD_MESSAGES = {
  taskRequired: 'Task is required',
  tooLong: FIELD_MESSAGES.tooLong,
} as const;

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

export const submissionListQuerySchema = z.object({
  status: statusFilter,
  q: searchQuery,
  ...pageQuery,
});

/** GET /api/admin/submissions/pending-ids: the review screen's search. */
export const pendingIdsQuerySchema = z.object({ q: searchQuery });

/** A submission as its owner and admins see it (SPEC.md section 3). Money in TL. */
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
  /** server-relative, signed, valid for about 10 minutes; null when there is no file */
  proofImageUrl: string | null;
  /** A signed URL of the proof's small WebP thumbnail (320 px), null until it has one. */
  proofThumbnailUrl: string | null;
  task: { _id: string; title: string; reward: number };
  user: { _id: string; name: string };
}
