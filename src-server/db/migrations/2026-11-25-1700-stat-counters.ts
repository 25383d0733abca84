import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead.
// The admin dashboard's counters. Triggers keep them, in the same transaction as
// the row change they count, whatever code path makes it (a route, a factory, a future
// feature), so they cannot be forgotten. Each counter is summed per UTC hour of its event's
// time (bucket 'YYYY-MM-DDTHH', the first 13 characters of the stored ISO text) and, where the
// dashboard shows an all-time figure, in the bucket '*'. A window of time is the buckets of
// its whole hours plus an indexed count of its partial first and last hour (admin-stats),
// so the figures are exact, not approximate.
// PostgreSQL: the same table with each counter over 16 rows (shards); the triggers become
// plpgsql functions.

interface Counter {
  metric: string;
  table: 'users' | 'tasks' | 'submissions';
  /** The bucket of a row, given its alias (NEW or OLD). */
  bucket: (r: string) => string;
  /** Whether a row counts. */
  counts: (r: string) => string;
  /** What a row adds. */
  value: (r: string) => string;
}

const hour = (column: string) => (r: string) => `substr(${r}.${column}, 1, 13)`;
const allTime = () => `'*'`;
const one = () => '1';
const live = (r: string) => `${r}.deleted_at IS NULL`;
const reviewedAs = (status: string) => (r: string) =>
  `${r}.status = '${status}' AND ${r}.reviewed_at IS NOT NULL`;

const counters: Counter[] = [
  { metric: 'users', table: 'users', bucket: hour('created_at'), counts: live, value: one },
  { metric: 'users', table: 'users', bucket: allTime, counts: live, value: one },
  { metric: 'tasks', table: 'tasks', bucket: hour('created_at'), counts: live, value: one },
  { metric: 'tasks', table: 'tasks', bucket: allTime, counts: live, value: one },
  { metric: 'submissions', table: 'submissions', bucket: hour('created_at'), counts: () => '1', value: one },
  {
    metric: 'pending',
    table: 'submissions',
    bucket: allTime,
    counts: (r) => `${r}.status = 'pending'`,
    value: one,
  },
  {
    metric: 'approved',
    table: 'submissions',
    bucket: hour('reviewed_at'),
    counts: reviewedAs('approved'),
    value: one,
  },
  {
    metric: 'rejected',
    table: 'submissions',
    bucket: hour('reviewed_at'),
    counts: reviewedAs('rejected'),
    value: one,
  },
  {
    metric: 'rewards',
    table: 'submissions',
    bucket: hour('reviewed_at'),
    counts: reviewedAs('approved'),
    value: (r) => `${r}.reward`,
  },
  {
    metric: 'rewards',
    table: 'submissions',
    bucket: allTime,
    counts: (r) => `${r}.status = 'approved'`,
    value: (r) => `${r}.reward`,
  },
];

const watched: Record<Counter['table'], string> = {
  users: 'created_at, deleted_at',
  tasks: 'created_at, deleted_at',
  submissions: 'status, reviewed_at, reward, created_at',
};

const add = (c: Counter, r: string, sign: '' | '-', where: string) =>
  `INSERT INTO stat_counters (metric, bucket, value) SELECT '${c.metric}', ${c.bucket(r)}, ${sign}${c.value(r)}
     WHERE ${where} ON CONFLICT (metric, bucket) DO UPDATE SET value = stat_counters.value + excluded.value;`;

// `IS` is SQLite's null-safe equality; PostgreSQL spells it IS NOT DISTINCT FROM
const same = (c: Counter, is = 'IS') =>
  `(${c.counts('OLD')} AND ${c.counts('NEW')} AND ${c.bucket('OLD')} ${is} ${c.bucket('NEW')} AND ${c.value('OLD')} ${is} ${c.value('NEW')})`;

function triggers(table: Counter['table']): string[] {
  const mine = counters.filter((c) => c.table === table);
  return [
    `CREATE TRIGGER stat_${table}_insert AFTER INSERT ON ${table} BEGIN
       ${mine.map((c) => add(c, 'NEW', '', c.counts('NEW'))).join('\n')}
     END`,
    `CREATE TRIGGER stat_${table}_delete AFTER DELETE ON ${table} BEGIN
       ${mine.map((c) => add(c, 'OLD', '-', c.counts('OLD'))).join('\n')}
     END`,
    `CREATE TRIGGER stat_${table}_update AFTER UPDATE OF ${watched[table]} ON ${table} BEGIN
       ${mine.map((c) => add(c, 'OLD', '-', `(${c.counts('OLD')}) AND NOT ${same(c)}`)).join('\n')}
       ${mine.map((c) => add(c, 'NEW', '', `(${c.counts('NEW')}) AND NOT ${same(c)}`)).join('\n')}
     END`,
  ];
}

// PostgreSQL wants a boolean where SQLite takes the number 1
const pgCounters = counters.map((c) => ({
  ...c,
  counts: (r: string) => (c.counts(r) === '1' ? 'TRUE' : c.counts(r)),
}));

/**
 * On PostgreSQL each counter is spread over SHARDS rows (metric, bucket, shard), a write adding to
 * a random one: concurrent transactions from many nodes would otherwise queue on the few hot rows
 * ('pending' '*', 'rewards' '*', the current hour) until each commits. Readers sum the shards.
 */
const SHARDS = 16;
const pgAdd = (c: Counter, r: string, sign: '' | '-', where: string) =>
  `INSERT INTO stat_counters (metric, bucket, shard, value)
     SELECT '${c.metric}', ${c.bucket(r)}, floor(random() * ${SHARDS})::smallint, ${sign}${c.value(r)}
     WHERE ${where} ON CONFLICT (metric, bucket, shard) DO UPDATE SET value = stat_counters.value + excluded.value;`;

/**
 * PostgreSQL: the same statements, one plpgsql function per SQLite trigger (insert,
 * delete, update), so the two engines count alike.
 */
function postgresTriggers(table: Counter['table']): string[] {
  const mine = pgCounters.filter((c) => c.table === table);
  const is = 'IS NOT DISTINCT FROM';
  const bodies: Record<'insert' | 'delete' | 'update', string[]> = {
    insert: mine.map((c) => pgAdd(c, 'NEW', '', c.counts('NEW'))),
    delete: mine.map((c) => pgAdd(c, 'OLD', '-', c.counts('OLD'))),
    update: [
      ...mine.map((c) => pgAdd(c, 'OLD', '-', `(${c.counts('OLD')}) AND NOT ${same(c, is)}`)),
      ...mine.map((c) => pgAdd(c, 'NEW', '', `(${c.counts('NEW')}) AND NOT ${same(c, is)}`)),
    ],
  };
  const when = { insert: 'INSERT', delete: 'DELETE', update: `UPDATE OF ${watched[table]}` };
  return (['insert', 'delete', 'update'] as const).flatMap((op) => [
    `CREATE FUNCTION stat_${table}_${op}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       ${bodies[op].join('\n')}
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER stat_${table}_${op} AFTER ${when[op]} ON ${table}
       FOR EACH ROW EXECUTE FUNCTION stat_${table}_${op}()`,
  ]);
}

const backfill = counters.map(
  (c) =>
    `INSERT INTO stat_counters (metric, bucket, value)
       SELECT '${c.metric}', ${c.bucket(c.table)}, SUM(${c.value(c.table)}) FROM ${c.table}
       WHERE ${c.counts(c.table)} GROUP BY 2`,
);
const pgBackfill = pgCounters.map(
  (c) =>
    `INSERT INTO stat_counters (metric, bucket, shard, value)
       SELECT '${c.metric}', ${c.bucket(c.table)}, 0, SUM(${c.value(c.table)}) FROM ${c.table}
       WHERE ${c.counts(c.table)} GROUP BY 2`,
);

const statements = [
  `CREATE TABLE stat_counters (
    metric TEXT NOT NULL,
    bucket TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (metric, bucket)
  ) STRICT`,
  // the sum of a window's hours reads this index alone (the table's key lookups doubled the time)
  'CREATE INDEX stat_counters_sum ON stat_counters(metric, bucket, value)',
  // the partial first and last hour of a window are counted from the rows
  'CREATE INDEX tasks_live_created ON tasks(created_at) WHERE deleted_at IS NULL',
  ...backfill,
  ...triggers('users'),
  ...triggers('tasks'),
  ...triggers('submissions'),
];

const postgres = [
  `CREATE TABLE stat_counters (
    metric TEXT NOT NULL,
    bucket TEXT NOT NULL,
    shard SMALLINT NOT NULL DEFAULT 0,
    value BIGINT NOT NULL,
    PRIMARY KEY (metric, bucket, shard)
  )`,
  ...statements.slice(1, 3),
  ...pgBackfill,
  ...postgresTriggers('users'),
  ...postgresTriggers('tasks'),
  ...postgresTriggers('submissions'),
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const list = isPostgres(db) ? postgres : statements;
  const run = async (trx: Kysely<unknown>) => {
    for (const statement of list) await sql.raw(statement).execute(trx);
  };
  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
}

// Written here as it was when this migration shipped, not imported from the app: a migration
// imports only Kysely, so nothing the app changes later changes what it did.
function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
