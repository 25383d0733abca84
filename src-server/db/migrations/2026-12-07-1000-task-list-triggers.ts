import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// The task list's version (change_counters 'task_list') moved only with the task service's own
// writes, so every other change to which tasks a list holds (an approval that fills a task, a
// command-line edit) showed only when the list's ids were read again, every 2 s, whatever they
// cost (11 ms at 100,000 tasks). These triggers bump the same version in the transaction of any
// change to a column a list filters or sorts on, and of any task inserted or deleted, whatever
// code path makes it; a list may then be kept until the version moves. total_completed is left
// out on purpose: every approval changes it (the "most popular" sort keeps its 2 s instead), as
// are reserved and updated_at (every start and verdict). The WHEN clause skips a SET that
// leaves the values as they were.
const WATCHED = [
  'status',
  'deleted_at',
  'deadline',
  'is_featured',
  'created_at',
  'reward',
  'estimated_time',
  'category',
  'difficulty',
  'search_title',
  'search_body',
];
const BUMP = "UPDATE change_counters SET value = value + 1 WHERE name = 'task_list'";

const sqlite = [
  `CREATE TRIGGER task_list_insert AFTER INSERT ON tasks BEGIN ${BUMP}; END`,
  `CREATE TRIGGER task_list_delete AFTER DELETE ON tasks BEGIN ${BUMP}; END`,
  `CREATE TRIGGER task_list_update AFTER UPDATE OF ${WATCHED.join(', ')} ON tasks
     WHEN ${WATCHED.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ')}
   BEGIN ${BUMP}; END`,
];

const postgres = [
  `CREATE FUNCTION task_list_bump() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     ${BUMP};
     RETURN NULL;
   END $$`,
  'CREATE TRIGGER task_list_insert AFTER INSERT OR DELETE ON tasks FOR EACH ROW EXECUTE FUNCTION task_list_bump()',
  `CREATE TRIGGER task_list_update AFTER UPDATE OF ${WATCHED.join(', ')} ON tasks
     FOR EACH ROW WHEN (${WATCHED.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
     EXECUTE FUNCTION task_list_bump()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const list = db.getExecutor().adapter instanceof PostgresAdapter ? postgres : sqlite;
  const run = async (trx: Kysely<unknown>) => {
    for (const statement of list) await sql.raw(statement).execute(trx);
  };
  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
}
