import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';

/**
 * The task list's version: bumped in the transaction of every write through the
 * task service, so it commits or rolls back with the write. Nodes sharing the database read it
 * (one primary-key read) before using the ids they keep in memory (task-list-cache.ts): a list
 * read under another version is read again, so a task written through any node shows on every
 * node at once, as it does on the node that wrote it.
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

// compiled once per engine (a named statement on PostgreSQL): every list request of a cluster
// node runs it
const versionRow = prepared((db: Db, name: string) =>
  db
    .selectFrom('change_counters')
    .select('value')
    .where('name', '=', name as 'task_list'),
);
