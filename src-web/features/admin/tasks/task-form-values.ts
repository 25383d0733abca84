import type { Category, Difficulty, ProofType, TaskStatus } from '@contract/constants';
import { derivedMinSeconds } from '@contract/fraud';
import { fieldErrors } from '@contract/schemas';
import {
  normalizeComments,
  TASK_FIELD_MESSAGES,
  type TaskDto,
  taskCreateSchema,
  turkeyDay,
} from '@contract/tasks';

/** The admin task form as its inputs hold it: text everywhere, comments one per line. */
export interface TaskFormValues {
  title: string;
  category: Category;
  description: string;
  automaticComments: string;
  reward: string;
  deadline: string;
  difficulty: Difficulty;
  status: TaskStatus;
  maxCompletions: string;
  requiredProof: ProofType;
  taskLink: string;
  /** one step per line, as the task page lists them */
  steps: string;
  /** one requirement per line */
  requirements: string;
  /** minutes, '' for none (the quickest sort uses it) */
  estimatedTime: string;
  /** minutes a started task may take (5 to 10,080) */
  timeLimitMinutes: string;
  /** seconds from start to proof below which a proof is flagged "too fast"; '' derives it */
  minSeconds: string;
}

/** The statuses the admin form offers; a task's other status is kept as it is. */
export const FORM_STATUSES = ['active', 'inactive'] as const satisfies readonly TaskStatus[];

/** A new task: the form's defaults (social_media, easy, screenshot). */
export const NEW_TASK_VALUES: TaskFormValues = {
  title: '',
  category: 'social_media',
  description: '',
  automaticComments: '',
  reward: '',
  deadline: '',
  difficulty: 'easy',
  status: 'active',
  maxCompletions: '1000',
  requiredProof: 'screenshot',
  taskLink: '',
  steps: '',
  requirements: '',
  estimatedTime: '',
  timeLimitMinutes: '60',
  minSeconds: '',
};

/** The form filled from a stored task (the deadline as its day in Turkey). */
export function valuesFromTask(task: TaskDto): TaskFormValues {
  return {
    title: task.title,
    category: task.category,
    description: task.description,
    automaticComments: (task.automaticComments ?? []).join('\n'),
    reward: String(task.reward),
    deadline: task.deadline ? turkeyDay(task.deadline) : '',
    difficulty: task.difficulty,
    status: task.status,
    maxCompletions: String(task.maxCompletions),
    requiredProof: task.requiredProof,
    taskLink: task.taskLink ?? '',
    steps: (task.steps ?? []).join('\n'),
    requirements: (task.requirements ?? []).join('\n'),
    estimatedTime: task.estimatedTime == null ? '' : String(task.estimatedTime),
    timeLimitMinutes: String(task.timeLimitMinutes ?? 60),
    minSeconds: task.minSeconds == null ? '' : String(task.minSeconds),
  };
}

/** A list edited one item per line: trimmed, blank lines dropped (the server does the same). */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * The comment lines the way the form saves them: trimmed, blank lines and duplicates dropped.
 * Empty lines at the very end (a final Enter) are not counted as removed.
 */
export function commentsOf(text: string): { comments: string[]; removed: number } {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  return normalizeComments(lines);
}

const num = (text: string) => (text.trim() === '' ? undefined : Number(text.trim().replace(',', '.')));

export type TaskFieldMessageKey = keyof typeof TASK_FIELD_MESSAGES;

/** A field message of the task schemas as its key (for `admin:taskForm.errors.<key>`). */
export function taskMessageKey(message: string): TaskFieldMessageKey | undefined {
  return (Object.keys(TASK_FIELD_MESSAGES) as TaskFieldMessageKey[]).find(
    (k) => TASK_FIELD_MESSAGES[k] === message,
  );
}

export type TaskFormCheck =
  | { ok: true; body: Record<string, unknown>; removed: number }
  | { ok: false; errors: Record<string, string> };

/**
 * The browser's check of the form, with the server's own schema: title, description, reward
 * (required, at least 0.01 with two decimals), task link, max completions, deadline, in that
 * order. On success, the body to send: a new task omits an empty deadline and link; an edit
 * sends them empty so they are removed, and sends the used comments back unchanged.
 */
export function checkTaskForm(values: TaskFormValues, editing?: TaskDto): TaskFormCheck {
  const { comments, removed } = commentsOf(values.automaticComments);
  const deadline = values.deadline.trim();
  const taskLink = values.taskLink.trim();
  const body: Record<string, unknown> = {
    title: values.title,
    description: values.description,
    reward: num(values.reward),
    taskLink: taskLink || undefined,
    maxCompletions: num(values.maxCompletions),
    category: values.category,
    difficulty: values.difficulty,
    status: values.status,
    requiredProof: values.requiredProof,
    deadline: deadline || undefined,
    automaticComments: comments,
    steps: linesOf(values.steps),
    requirements: linesOf(values.requirements),
    estimatedTime: num(values.estimatedTime),
    timeLimitMinutes: num(values.timeLimitMinutes),
    minSeconds: num(values.minSeconds),
  };
  const parsed = taskCreateSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  if (editing) {
    body.taskLink = taskLink;
    body.deadline = deadline;
    body.usedComments = editing.usedComments ?? [];
    // an emptied estimate is removed; an emptied minimum is derived from the estimate again
    body.estimatedTime = body.estimatedTime ?? null;
    body.minSeconds = body.minSeconds ?? null;
  } else {
    if (!taskLink) delete body.taskLink;
    if (!deadline) delete body.deadline;
  }
  return { ok: true, body, removed };
}

/**
 * The "too fast" minimum the form's values give: the seconds typed, or (blank) a quarter of the
 * estimated time, at least 10 s; null while the typed value is not a number.
 */
export function minSecondsOf(values: Pick<TaskFormValues, 'minSeconds' | 'estimatedTime'>): number | null {
  const typed = num(values.minSeconds);
  if (typed !== undefined) return Number.isInteger(typed) && typed >= 0 ? typed : null;
  const estimate = num(values.estimatedTime);
  return derivedMinSeconds(estimate !== undefined && Number.isFinite(estimate) ? estimate : null);
}
