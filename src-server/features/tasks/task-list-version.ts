import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';

/**
 * The task list's version: bumped in the transaction of every write through the task service
 * (here), and of any change to a column a list filters or sorts on whatever path makes it (the
 * triggers of migration 2026-12-07-1000-task-list-triggers), so it commits or rolls back with the
 * write. Every list request reads it (one primary-key read, remembered under the change stamp)
 * before using the ids kept in memory (task-list-cache.ts): a list read under another version is
 * read again, so a change made through any node or path shows on every node at once. The task
 * service's own bump also covers the columns no trigger watches (a title, a description), which
 * the rows a page holds show.
 */
export async function bumpTaskListVersion(tx: Db): Promise<void> {
  await tx
    .updateTable('change_counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'task_list')
    .execute();
}

/** The task list's version now. */
export async function readTaskListVersion(db: Db): Promise<number> {
  const [row] = await versionRow(db, 'task_list');
  return Number(row?.value ?? 0);
}

// compiled once per engine (a named statement on PostgreSQL): list requests run it whenever the
// change stamp moved
const versionRow = prepared((db: Db, name: string) =>
  db
    .selectFrom('change_counters')
    .select('value')
    .where('name', '=', name as 'task_list'),
);
