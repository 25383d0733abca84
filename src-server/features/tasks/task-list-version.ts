import { stampColumn } from '../../db/change-stamp';
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

/**
 * The task list's version with the change stamp (db/change-stamp.ts) of the statement that read
 * it, for a request that has no stamp yet (an anonymous list on PostgreSQL): the one round trip
 * the list makes anyway also dates the page's remembered reads. Outside a transaction only (the
 * stamp is null inside one, and the text is compiled once).
 */
export async function readTaskListVersionStamped(db: Db): Promise<{ version: number; stamp: string | null }> {
  const [row] = await stampedVersionRow(db, 'task_list');
  return { version: Number(row?.value ?? 0), stamp: row?.stamp ?? null };
}

const stampedVersionRow = prepared((db: Db, name: string) =>
  db
    .selectFrom('change_counters')
    .select('value')
    .select(stampColumn(db).as('stamp'))
    .where('name', '=', name as 'task_list'),
);
