import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one instead. It imports only Kysely.
//
// The admins' submission list shows "N submissions" on every page, for all of them or one status,
// and its deep pages skipped up to half the list entry by entry (OFFSET 100,000 at the bench's
// 1,000,000). Counting them from an index read every entry: most of the list's time on SQLite,
// more on PostgreSQL. So stat_counters gets more counters, kept by triggers in the same
// transaction as every insert, delete and change of status or time, like the dashboard's:
// - 'submissions' '*': every submission (changes only with an insert or a delete);
// - per UTC day of created_at (bucket 'YYYY-MM-DD', the first 10 characters of the stored ISO
//   text): 'days' (every submission), 'days_pending', 'days_approved', 'days_rejected'. A status's
//   total is the sum of its days (a few hundred rows); a deep page sums the days from the list's
//   nearer end to find the day its first row is in, and skips only within that day.
// A review moves one submission between two status counters (two small upserts in its
// transaction). The triggers sit beside those of stat-counters, which stay as they shipped. On
// PostgreSQL a write adds to one of 16 shards of a counter, as there.

interface Counter {
  metric: string;
  /** The bucket of a row, given its alias (NEW or OLD). */
  bucket: (r: string) => string;
  /** Whether a row counts. */
  counts: (r: string) => string;
}

const allTime = () => `'*'`;
const day = (r: string) => `substr(${r}.created_at, 1, 10)`;
const every = () => 'TRUE';
const withStatus = (status: string) => (r: string) => `${r}.status = '${status}'`;

const counters: Counter[] = [
  { metric: 'submissions', bucket: allTime, counts: every },
  { metric: 'days', bucket: day, counts: every },
  { metric: 'days_pending', bucket: day, counts: withStatus('pending') },
  { metric: 'days_approved', bucket: day, counts: withStatus('approved') },
  { metric: 'days_rejected', bucket: day, counts: withStatus('rejected') },
];

const SHARDS = 16;

function add(postgres: boolean, c: Counter, r: string, sign: '' | '-', where: string): string {
  if (!postgres) {
    return `INSERT INTO stat_counters (metric, bucket, value) SELECT '${c.metric}', ${c.bucket(r)}, ${sign}1
      WHERE ${where} ON CONFLICT (metric, bucket) DO UPDATE SET value = stat_counters.value + excluded.value;`;
  }
  return `INSERT INTO stat_counters (metric, bucket, shard, value)
    SELECT '${c.metric}', ${c.bucket(r)}, floor(random() * ${SHARDS})::smallint, ${sign}1
    WHERE ${where} ON CONFLICT (metric, bucket, shard) DO UPDATE SET value = stat_counters.value + excluded.value;`;
}

function bodies(postgres: boolean): Record<'insert' | 'delete' | 'update', string[]> {
  const is = postgres ? 'IS NOT DISTINCT FROM' : 'IS';
  // a row that counts before and after, in the same bucket, moves nothing
  const moved = counters.filter((c) => c.bucket !== allTime);
  const same = (c: Counter) =>
    `(${c.counts('OLD')} AND ${c.counts('NEW')} AND ${c.bucket('OLD')} ${is} ${c.bucket('NEW')})`;
  return {
    insert: counters.map((c) => add(postgres, c, 'NEW', '', c.counts('NEW'))),
    delete: counters.map((c) => add(postgres, c, 'OLD', '-', c.counts('OLD'))),
    // the all-time total never moves with an update
    update: [
      ...moved.map((c) => add(postgres, c, 'OLD', '-', `(${c.counts('OLD')}) AND NOT ${same(c)}`)),
      ...moved.map((c) => add(postgres, c, 'NEW', '', `(${c.counts('NEW')}) AND NOT ${same(c)}`)),
    ],
  };
}

const when = { insert: 'INSERT', delete: 'DELETE', update: 'UPDATE OF status, created_at' } as const;
/** An update fires the trigger only when it changed what the counters hold. */
const changed = (is: string) =>
  `(NOT (OLD.status ${is} NEW.status) OR NOT (OLD.created_at ${is} NEW.created_at))`;
const ops = ['insert', 'delete', 'update'] as const;

function sqliteStatements(): string[] {
  const b = bodies(false);
  return [
    ...counters.map(
      (c) =>
        `INSERT INTO stat_counters (metric, bucket, value)
          SELECT '${c.metric}', ${c.bucket('submissions')}, COUNT(*) FROM submissions
          WHERE ${c.counts('submissions')} GROUP BY 2`,
    ),
    ...ops.map(
      (op) => `CREATE TRIGGER stat_submission_counts_${op} AFTER ${when[op]} ON submissions
        ${op === 'update' ? `WHEN ${changed('IS')} ` : ''}BEGIN
        ${b[op].join('\n')}
      END`,
    ),
  ];
}

function postgresStatements(): string[] {
  const b = bodies(true);
  return [
    ...counters.map(
      (c) =>
        `INSERT INTO stat_counters (metric, bucket, shard, value)
          SELECT '${c.metric}', ${c.bucket('submissions')}, 0, COUNT(*)
          FROM submissions WHERE ${c.counts('submissions')} GROUP BY 2`,
    ),
    ...ops.flatMap((op) => [
      `CREATE FUNCTION stat_submission_counts_${op}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${b[op].join('\n')}
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER stat_submission_counts_${op} AFTER ${when[op]} ON submissions FOR EACH ROW
        ${op === 'update' ? `WHEN ${changed('IS NOT DISTINCT FROM')} ` : ''}EXECUTE FUNCTION stat_submission_counts_${op}()`,
    ]),
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const list = postgres ? postgresStatements() : sqliteStatements();
  const run = async (trx: Kysely<unknown>) => {
    // the backfill and the triggers in one transaction: no row is counted twice or missed
    if (postgres) await sql`LOCK TABLE submissions IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    for (const statement of list) await sql.raw(statement).execute(trx);
  };
  if (db.isTransaction) await run(db);
  else await db.transaction().execute(run);
}
