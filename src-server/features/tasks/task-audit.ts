import type { Updateable } from 'kysely';
import { type TaskDto, taskAdminUpdateSchema } from '../../contract/tasks';
import type { TasksTable } from '../../db/schema';
import { changedFields } from '../audit/audit.repository';
import { toTaskDto } from './tasks.mapper';
import type { TaskRow } from './tasks.repository';

// The fields of a task the log follows: every one a task edit can set, named as the API names
// them (the admin's edit takes them all; the owner's form a part). The comment texts are left
// out: the log counts them instead of copying them.
const { automaticComments: _counted, ...editable } = taskAdminUpdateSchema.shape;
const AUDITED = Object.keys(editable) as (keyof TaskDto)[];

/** A task as the log shows it: the API's names and values, but money in kuruş as the whole log. */
export function taskAuditView(row: TaskRow): Partial<Record<keyof TaskDto, unknown>> {
  const dto: Record<string, unknown> = {
    ...toTaskDto(row, { counts: { total: 0, used: 0 }, comments: [] }),
    reward: row.reward,
  };
  return Object.fromEntries(AUDITED.map((field) => [field, dto[field]]));
}

/** What a task write changes, as { field: [before, after] } in the API's words. */
export function taskChanges(row: TaskRow, patch: Updateable<TasksTable>): Record<string, [unknown, unknown]> {
  return changedFields(taskAuditView(row), taskAuditView({ ...row, ...patch }));
}
