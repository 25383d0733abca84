/** The business constants, one definition shared by the server and the web app. */

export const CATEGORIES = [
  'social_media',
  'review',
  'video',
  'membership',
  'survey',
  'test',
  'game',
  'inspection',
  'giveaway',
  'other',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const PROOF_TYPES = ['screenshot', 'link', 'code', 'text', 'none'] as const;
export type ProofType = (typeof PROOF_TYPES)[number];

export const TASK_STATUSES = ['active', 'inactive', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const USER_STATUSES = ['active', 'suspended', 'banned'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const PAYMENT_METHODS = ['papara', 'iban'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const NOTIFICATION_TYPES = [
  'isAccepted',
  'isRejected',
  'newTask',
  'acceptedWithdraw',
  'rejectedWithdraw',
  'customMessage',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const REJECTION_REASONS = [
  'missing_text',
  'no_share',
  'irrelevant_evidence',
  'low_quality_image',
  'wrong_format',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** The English labels of the preset rejection reasons (stored as a quick reject's feedback). */
export const REJECTION_REASON_LABELS: Record<RejectionReason, string> = {
  missing_text: 'Missing text or too few sentences',
  no_share: 'No share was made',
  irrelevant_evidence: 'Irrelevant evidence',
  low_quality_image: 'Low quality image',
  wrong_format: 'Wrong format',
};

/**
 * Feedback the system writes rather than a person: stored as a code beside its English text
 * and shown in the reader's language. `task_completed` is the quick approve's fixed text;
 * `rejection_reason` means the feedback is the label of the submission's rejection reason.
 */
export const FEEDBACK_CODES = ['task_completed', 'rejection_reason'] as const;
export type FeedbackCode = (typeof FEEDBACK_CODES)[number];

export const TASK_SORTS = [
  'newest',
  'oldest',
  'highest_reward',
  'lowest_reward',
  'quickest',
  'most_popular',
] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export const REWARD_RANGES = ['0-10', '10-20', '20-50', '50+'] as const;
export type RewardRange = (typeof REWARD_RANGES)[number];

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PROOF_BYTES = 5_242_880;
export const DEFAULT_MINIMUM_PAYOUT_TL = 20;
export const QUICK_APPROVE_FEEDBACK = 'task completed successfully';

export const PAGE_SIZES = {
  adminTasks: 10,
  adminUsers: 10,
  profileWithdrawals: 5,
  dashboardRecent: 5,
  recentActivity: 5,
} as const;

export const TIMINGS_MS = {
  toast: 3000,
  startToast: 5000,
  copyConfirm: 2000,
  dialogClose: 2000,
  duplicateNotice: 3000,
  successBanner: 3000,
} as const;

export const TOAST_CAP = 20;

/** Displayed defaults when a task field is missing. */
export const TASK_DISPLAY_DEFAULTS = { maxCompletions: 1000, rating: 4.5 } as const;
