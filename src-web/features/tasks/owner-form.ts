import type { Category, Difficulty, ProofType } from '@contract/constants';
import { fieldErrors } from '@contract/schemas';
import {
  OWNER_TASK_STATUSES,
  parseDeadline,
  TASK_FIELD_MESSAGES,
  type TaskDto,
  taskOwnerUpdateSchema,
  turkeyDay,
} from '@contract/tasks';

/** The owner edit form as the inputs hold it: text everywhere, lists one entry per line. */
export interface OwnerFormValues {
  title: string;
  description: string;
  category: Category | '';
  difficulty: Difficulty | '';
  reward: string;
  deadline: string;
  status: (typeof OWNER_TASK_STATUSES)[number] | '';
  maxCompletions: string;
  requiredProof: ProofType | '';
  taskLink: string;
  estimatedTime: string;
  /** minutes a started task may take (5 to 10,080) */
  timeLimitMinutes: string;
  steps: string;
  requirements: string;
  automaticComments: string;
}

const ownerStatus = (status: string): OwnerFormValues['status'] =>
  OWNER_TASK_STATUSES.find((s) => s === status) ?? '';

export function initialValues(task: TaskDto): OwnerFormValues {
  return {
    title: task.title,
    description: task.description,
    category: task.category,
    difficulty: task.difficulty,
    reward: String(task.reward),
    deadline: task.deadline ? turkeyDay(task.deadline) : '',
    // an inactive task has no owner status: the owner must choose one
    status: ownerStatus(task.status),
    maxCompletions: String(task.maxCompletions),
    requiredProof: task.requiredProof,
    taskLink: task.taskLink ?? '',
    estimatedTime: task.estimatedTime === null ? '' : String(task.estimatedTime),
    timeLimitMinutes: String(task.timeLimitMinutes),
    steps: task.steps.join('\n'),
    requirements: task.requirements.join('\n'),
    automaticComments: (task.automaticComments ?? []).join('\n'),
  };
}

const num = (text: string) => (text.trim() === '' ? undefined : Number(text));
const lines = (text: string) => text.split(/\r?\n/);

/** The PUT body: numbers as numbers, lists as arrays (the server trims and drops blank lines). */
export function toBody(v: OwnerFormValues): Record<string, unknown> {
  return {
    title: v.title,
    description: v.description,
    reward: num(v.reward),
    taskLink: v.taskLink.trim(),
    maxCompletions: num(v.maxCompletions),
    category: v.category,
    difficulty: v.difficulty,
    status: v.status,
    requiredProof: v.requiredProof,
    deadline: v.deadline,
    estimatedTime: num(v.estimatedTime) ?? null,
    timeLimitMinutes: num(v.timeLimitMinutes),
    steps: lines(v.steps),
    requirements: lines(v.requirements),
    automaticComments: lines(v.automaticComments),
  };
}

/** The first day a new deadline may be: tomorrow in Turkey (for the date input's `min`). */
export function firstDeadlineDay(now: Date = new Date()): string {
  return turkeyDay(new Date(now.getTime() + 86_400_000));
}

/**
 * The server's owner rules, checked in the browser: every field required, a valid reward,
 * a deadline after today. Returns the body to send, or the English field messages.
 */
export function checkOwnerForm(
  values: OwnerFormValues,
  now: Date = new Date(),
): { body: Record<string, unknown> } | { errors: Record<string, string> } {
  const body = toBody(values);
  const parsed = taskOwnerUpdateSchema.safeParse(body);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  const deadline = parseDeadline(values.deadline.trim());
  if (!errors.deadline && deadline && turkeyDay(deadline) <= turkeyDay(now)) {
    errors.deadline = TASK_FIELD_MESSAGES.deadlinePast;
  }
  return Object.keys(errors).length ? { errors } : { body };
}

/** A field message of the task schemas as a key of the `tasks` namespace's `fields`. */
export function taskFieldKey(message: string): string | undefined {
  return (Object.keys(TASK_FIELD_MESSAGES) as (keyof typeof TASK_FIELD_MESSAGES)[]).find(
    (k) => TASK_FIELD_MESSAGES[k] === message,
  );
}
