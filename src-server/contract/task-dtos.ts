import type { Category, Difficulty, FeedbackCode, ProofType, ReviewStatus, TaskStatus } from './constants';

/** Counts of the automatic-comment pool; the texts go only to admins and the task's owner. */
// a type alias (not an interface) so it also fits index-signature parameters like i18n options
export type CommentStats = {
  total: number;
  used: number;
  remaining: number;
};

/** The latest submission of a user task record, as the task page needs it. */
export interface UserTaskSubmissionDto {
  _id: string;
  status: ReviewStatus;
  description: string | null;
  feedback: string | null;
  feedbackCode: FeedbackCode | null;
  rejectionReason: string | null;
  reward: number;
  createdAt: string;
  updatedAt: string;
  /** the worker's appeal of this rejection: waiting, upheld or overturned; null when none */
  appeal: 'pending' | 'upheld' | 'overturned' | null;
  /** a rejection its worker may still appeal (same rule as the submission's own flag) */
  appealable: boolean;
}

/** A user's record of a task (user task record). */
export interface UserTaskDto {
  _id: string;
  task: { _id: string; title: string; reward: number; status: TaskStatus; deadline: string | null };
  /** expired: not submitted in time; its slot and comment went back to the task */
  status: 'in_progress' | 'completed' | 'expired';
  automaticComment: string | null;
  startedAt: string;
  completedAt: string | null;
  /** while in progress: the moment the proof must have arrived by */
  expiresAt: string | null;
  /** why an expired record ended: its time ran out, or its task was deleted or closed */
  endReason: 'time' | 'task_closed' | 'user_deleted' | null;
  submission: UserTaskSubmissionDto | null;
}

/** The task as the API shows it. `reward` is in TL. */
export interface TaskDto {
  _id: string;
  title: string;
  description: string;
  category: Category;
  reward: number;
  deadline: string | null;
  difficulty: Difficulty;
  status: TaskStatus;
  maxCompletions: number;
  requiredProof: ProofType;
  taskLink: string | null;
  isFeatured: boolean;
  steps: string[];
  requirements: string[];
  estimatedTime: number | null;
  /** minutes a started task may take before it expires */
  timeLimitMinutes: number;
  /**
   * only for admins and the task's owner: the seconds from start to proof below which a
   * proof is flagged "too fast" as set (null: derived), and the value in force
   */
  minSeconds?: number | null;
  minSecondsInForce?: number;
  rating: number;
  totalCompleted: number;
  /** slots still free: maxCompletions minus records in progress, pending or approved */
  remainingSlots: number;
  createdAt: string;
  updatedAt: string;
  /** the creator's name */
  createdBy: string | null;
  /** the viewer created this task (they may edit it) */
  isOwner: boolean;
  commentStats: CommentStats;
  /** only for admins and the task's owner: every comment, in order */
  automaticComments?: string[];
  /** only for admins and the task's owner: the comments already given out */
  usedComments?: string[];
  /** task detail for a signed-in user: their record, or null */
  userTask?: UserTaskDto | null;
}

/** The reply of POST and PUT /api/tasks: the task, and how many comment lines were dropped. */
export interface TaskSaveReply {
  success: true;
  data: TaskDto;
  removedComments: number;
}
