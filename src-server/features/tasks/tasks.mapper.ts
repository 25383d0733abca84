import { isAppealable } from '../../contract/appeals';
import type { ReviewStatus } from '../../contract/constants';
import { derivedMinSeconds } from '../../contract/fraud';
import { kurusToTl } from '../../contract/money';
import type { TaskDto, UserTaskDto } from '../../contract/tasks';
import { textList } from '../../db/json';
import type { CommentCounts, CommentRow } from './task-comments.repository';
import type { TaskRow } from './tasks.repository';
import type { UserTaskRecordRow } from './user-tasks.repository';

export interface TaskView {
  viewerId?: string;
  counts: CommentCounts;
  /** the texts, only for admins and the task's owner */
  comments?: CommentRow[];
  userTask?: UserTaskDto | null;
}

/**
 * The fields of a task's API shape that only a task write changes (tasks.repository.ts
 * TaskLiveRow says which columns change without one): the list serializes them once per row
 * it holds.
 */
export function taskFixedFields(row: TaskRow) {
  return {
    _id: row._id,
    title: row.title,
    description: row.description,
    category: row.category,
    reward: kurusToTl(row.reward),
    difficulty: row.difficulty,
    requiredProof: row.required_proof,
    taskLink: row.task_link,
    isFeatured: row.is_featured === 1,
    steps: textList(row.steps),
    requirements: textList(row.requirements),
    estimatedTime: row.estimated_time,
    timeLimitMinutes: row.time_limit_minutes,
    rating: row.rating,
    createdAt: row.created_at,
    createdBy: row.creator_name,
  } satisfies Partial<TaskDto>;
}

/** The fields that change without a task write, and the viewer's own (isOwner). */
export function taskLiveFields(
  row: Pick<
    TaskRow,
    'deadline' | 'status' | 'max_completions' | 'total_completed' | 'reserved' | 'updated_at'
  >,
  createdBy: string | null,
  view: Pick<TaskView, 'viewerId' | 'counts'>,
) {
  return {
    deadline: row.deadline,
    status: row.status,
    maxCompletions: row.max_completions,
    totalCompleted: row.total_completed,
    remainingSlots: Math.max(0, row.max_completions - row.reserved),
    updatedAt: row.updated_at,
    isOwner: view.viewerId !== undefined && createdBy === view.viewerId,
    commentStats: {
      total: view.counts.total,
      used: view.counts.used,
      remaining: view.counts.total - view.counts.used,
    },
  } satisfies Partial<TaskDto>;
}

/** The API shape of a task: camelCase, reward in TL, comment texts only when given. */
export function toTaskDto(row: TaskRow, view: TaskView): TaskDto {
  const dto: TaskDto = { ...taskFixedFields(row), ...taskLiveFields(row, row.created_by, view) };
  if (view.comments) {
    dto.minSeconds = row.min_seconds;
    dto.minSecondsInForce = row.min_seconds ?? derivedMinSeconds(row.estimated_time);
    dto.automaticComments = view.comments.map((c) => c.text);
    dto.usedComments = view.comments.filter((c) => c.used).map((c) => c.text);
  }
  if (view.userTask !== undefined) dto.userTask = view.userTask;
  return dto;
}

/**
 * A user task record as the API shows it. One in progress past its time reads as
 * expired even before the sweep has ended it (`now`, the reader's clock).
 */
export function toUserTaskDto(row: UserTaskRecordRow, now: string): UserTaskDto {
  const overdue = row.status === 'in_progress' && row.expires_at !== null && row.expires_at <= now;
  return {
    _id: row._id,
    task: {
      _id: row.task_id,
      title: row.task_title,
      reward: kurusToTl(row.task_reward),
      status: row.task_status,
      deadline: row.task_deadline,
    },
    status: overdue ? 'expired' : row.status,
    automaticComment: overdue || row.status === 'expired' ? null : row.automatic_comment,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    expiresAt: row.status === 'in_progress' && !overdue ? row.expires_at : null,
    endReason: overdue ? 'time' : row.status === 'expired' ? (row.end_reason ?? 'time') : null,
    submission:
      row.sub_id === null
        ? null
        : {
            _id: row.sub_id,
            status: row.sub_status as ReviewStatus,
            description: row.sub_description,
            feedback: row.sub_feedback,
            feedbackCode: row.sub_feedback_code,
            rejectionReason: row.sub_rejection_reason,
            reward: kurusToTl(row.sub_reward ?? 0),
            createdAt: row.sub_created_at ?? '',
            updatedAt: row.sub_updated_at ?? '',
            appeal: row.appeal_status,
            // the joined submission is the record's newest by construction
            appealable: isAppealable(
              {
                status: row.sub_status as ReviewStatus,
                appeal_status: row.appeal_status,
                record_status: overdue ? 'expired' : row.status,
                is_latest: 1,
                reviewed_at: row.sub_reviewed_at,
              },
              new Date(now),
            ),
          },
  };
}
