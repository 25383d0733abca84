import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { Progress } from './progress';
import { type MovedColumn, type MovedTable, quote } from './tables';

/** Rows per INSERT: big enough to keep round trips few, small enough to keep memory flat. */
const BATCH_ROWS = 5_000;

/**
 * A SQLite value as the twin's column takes it. SQLite keeps flags as 0/1 integers, times as ISO
 * text and bytes as blobs; the twin names the type, and only a boolean needs turning (text,
 * numbers and Buffers go through the unnest arrays as they are).
 */
function converter(column: MovedColumn): (v: unknown) => unknown {
  if (column.pgType === 'boolean') return (v) => (v === null ? null : v !== 0 && v !== '0' && v !== false);
  return (v) => v;
}

/**
 * Clears what the migrations put into the fresh target (their first audit entry, the change
 * counters) so the folder's own rows take their place, with the tables' own triggers off for the
 * transaction: the append-only guards, and the counters the twin keeps by triggers, whose values
 * are copied from the folder instead of being counted again as the rows arrive.
 */
export async function prepareTarget(client: pg.ClientBase, tables: MovedTable[]): Promise<string[]> {
  for (const t of tables) await client.query(`ALTER TABLE ${quote(t.name)} DISABLE TRIGGER USER`);
  for (const t of [...tables].reverse()) await client.query(`DELETE FROM ${quote(t.name)}`);
  return dropIndexes(client, tables);
}

/**
 * Drops the tables' indexes that back no constraint (the list and search indexes, the unique
 * ones made by CREATE UNIQUE INDEX) and returns their definitions: building an index once over a
 * million rows is many times faster than keeping it up to date row by row (the task search's
 * trigram index above all). Inside the transaction: a rollback brings them back.
 */
async function dropIndexes(client: pg.ClientBase, tables: MovedTable[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT quote_ident(ic.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
     WHERE c.relname = ANY($1::text[])
       AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
     ORDER BY 1`,
    [tables.map((t) => t.name)],
  );
  for (const r of rows) await client.query(`DROP INDEX ${r.name}`);
  return rows.map((r) => r.def);
}

/** Builds the dropped indexes again over the copied rows and turns the triggers back on. */
export async function finishTarget(
  client: pg.ClientBase,
  tables: MovedTable[],
  indexes: string[],
  progress: Progress,
): Promise<void> {
  const step = progress.step('indexes', indexes.length, 'indexes');
  for (const def of indexes) {
    await client.query(def);
    step.add(1);
  }
  step.end();
  for (const t of tables) await client.query(`ALTER TABLE ${quote(t.name)} ENABLE TRIGGER USER`);
}

/** Row counts of the tables in the SQLite snapshot. */
export function sqliteCounts(sqlite: Database.Database, tables: MovedTable[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tables) {
    const row = sqlite.prepare(`SELECT count(*) AS n FROM ${quote(t.name)}`).get() as { n: number };
    out.set(t.name, row.n);
  }
  return out;
}

/**
 * Copies one table: its rows streamed from the SQLite snapshot in batches, each batch one
 * INSERT … SELECT FROM unnest(column arrays) (one parameter per column, whatever the batch's
 * size). Returns the rows copied.
 */
export async function copyTable(
  sqlite: Database.Database,
  client: pg.ClientBase,
  table: MovedTable,
  total: number,
  progress: Progress,
): Promise<number> {
  const step = progress.step(table.name, total, 'rows');
  const names = table.columns.map((c) => quote(c.name)).join(', ');
  const casts = table.columns.map((c, i) => `$${i + 1}::${c.pgType}[]`).join(', ');
  const insert = `INSERT INTO ${quote(table.name)} (${names}) SELECT * FROM unnest(${casts})`;
  const convert = table.columns.map(converter);
  const order = table.identity ? ` ORDER BY ${quote(table.identity)}` : '';
  const rows = sqlite
    .prepare(`SELECT ${names} FROM ${quote(table.name)}${order}`)
    .raw(true)
    .iterate() as IterableIterator<unknown[]>;
  let copied = 0;
  let arrays: unknown[][] = table.columns.map(() => []);
  let inBatch = 0;
  const flush = async () => {
    if (inBatch === 0) return;
    await client.query(insert, arrays);
    copied += inBatch;
    step.add(inBatch);
    arrays = table.columns.map(() => []);
    inBatch = 0;
  };
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) arrays[i].push(convert[i](row[i]));
    inBatch++;
    if (inBatch >= BATCH_ROWS) await flush();
  }
  await flush();
  step.end();
  return copied;
}

/**
 * Sets each identity's next value past the folder's: the highest id SQLite ever handed out
 * (sqlite_sequence remembers ids of rows since gone) or the highest present, whichever is more.
 */
export async function carrySequences(
  sqlite: Database.Database,
  client: pg.ClientBase,
  tables: MovedTable[],
): Promise<Record<string, number>> {
  const hasSequences = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'")
    .get();
  const out: Record<string, number> = {};
  for (const t of tables) {
    if (!t.identity) continue;
    const max = sqlite.prepare(`SELECT max(${quote(t.identity)}) AS n FROM ${quote(t.name)}`).get() as {
      n: number | null;
    };
    const seq = hasSequences
      ? (sqlite.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(t.name) as
          | { seq: number }
          | undefined)
      : undefined;
    const last = Math.max(max.n ?? 0, seq?.seq ?? 0);
    const sequence = `pg_get_serial_sequence('${quote(t.name)}', '${t.identity}')`;
    if (last > 0) await client.query(`SELECT setval(${sequence}, $1, true)`, [last]);
    else await client.query(`SELECT setval(${sequence}, 1, false)`);
    out[t.name] = last;
  }
  return out;
}
