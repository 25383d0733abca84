import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Progress } from './progress';
import { type MovedColumn, type MovedTable, quote } from './tables';

/**
 * Bytes of COPY text gathered before they are handed to the stream: big enough to keep the
 * writes few, small enough that memory stays flat whatever the table's size.
 */
const CHUNK_CHARS = 256 * 1024;

/** The characters COPY's text format gives a meaning to, escaped with a backslash. */
const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Text in COPY's text format: a backslash, tab, newline or carriage return escaped, the rest as is. */
export function copyText(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ESCAPES[c]) : text;
}

/**
 * How a SQLite value is written in COPY's text format for the twin's column. SQLite keeps flags
 * as 0/1 integers, times as ISO text and bytes as blobs; NULL is \N (an empty string stays
 * empty), a boolean t or f, bytes bytea's hex form (its backslash escaped), integers as their
 * digits (read as BigInt: none rounds through a double), every other value as its text, escaped.
 */
export function copyEncoder(column: MovedColumn): (v: unknown) => string {
  if (column.pgType === 'boolean')
    return (v) => (v === null ? '\\N' : v === 0 || v === 0n || v === '0' || v === false ? 'f' : 't');
  return (v) => {
    if (v === null || v === undefined) return '\\N';
    if (typeof v === 'string') return copyText(v);
    if (typeof v === 'bigint' || typeof v === 'number') return String(v);
    if (Buffer.isBuffer(v)) return `\\\\x${v.toString('hex')}`;
    return copyText(String(v));
  };
}

/** What the move takes off the target while the rows arrive, to put back over them after. */
export interface Dropped {
  /** CREATE INDEX statements of the indexes that back no constraint. */
  indexes: string[];
  /** The foreign keys: their table, name and definition. */
  foreignKeys: { table: string; name: string; def: string }[];
}

/**
 * Clears what the migrations put into the fresh target (their first audit entry, the change
 * counters) so the folder's own rows take their place, with the tables' own triggers off for the
 * transaction: the append-only guards, and the counters the twin keeps by triggers, whose values
 * are copied from the folder instead of being counted again as the rows arrive. Then takes off
 * the indexes that back no constraint and the foreign keys (see below).
 */
export async function prepareTarget(client: pg.ClientBase, tables: MovedTable[]): Promise<Dropped> {
  for (const t of tables) await client.query(`ALTER TABLE ${quote(t.name)} DISABLE TRIGGER USER`);
  for (const t of [...tables].reverse()) await client.query(`DELETE FROM ${quote(t.name)}`);
  const foreignKeys = await dropForeignKeys(client, tables);
  const indexes = await dropIndexes(client, tables);
  return { indexes, foreignKeys };
}

/**
 * Drops the foreign keys between the moved tables and returns their definitions. Kept, each row
 * of a million is looked up in its parents as it arrives (the user, the task...); added back after
 * the rows, each key is checked once over the whole table, in one join. The check is the same,
 * and a row naming a missing parent still fails the move. Inside the transaction: a rollback
 * brings them back.
 */
async function dropForeignKeys(client: pg.ClientBase, tables: MovedTable[]): Promise<Dropped['foreignKeys']> {
  const { rows } = await client.query<{ table: string; name: string; def: string }>(
    `SELECT c.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS def
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
     WHERE k.contype = 'f' AND c.relname = ANY($1::text[])
       AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
     ORDER BY 1, 2`,
    [tables.map((t) => t.name)],
  );
  for (const r of rows) await client.query(`ALTER TABLE ${quote(r.table)} DROP CONSTRAINT ${quote(r.name)}`);
  return rows;
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

/**
 * Builds the dropped indexes again over the copied rows, adds the foreign keys back (each checked
 * over its whole table) and turns the triggers back on.
 */
export async function finishTarget(
  client: pg.ClientBase,
  tables: MovedTable[],
  dropped: Dropped,
  progress: Progress,
): Promise<void> {
  const step = progress.step('indexes', dropped.indexes.length, 'indexes');
  for (const def of dropped.indexes) {
    await client.query(def);
    step.add(1);
  }
  step.end();
  const keys = progress.step('foreign keys', dropped.foreignKeys.length, 'keys');
  for (const k of dropped.foreignKeys) {
    await client.query(`ALTER TABLE ${quote(k.table)} ADD CONSTRAINT ${quote(k.name)} ${k.def}`);
    keys.add(1);
  }
  keys.end();
  for (const t of tables) await client.query(`ALTER TABLE ${quote(t.name)} ENABLE TRIGGER USER`);
  // the planner's statistics still say the tables are empty, and autovacuum cannot see rows not
  // yet committed: without them the checks that follow (the doctor's joins over a million rows)
  // are planned as nested loops and take hours instead of seconds. ANALYZE runs inside the
  // transaction and reads its own rows.
  const stats = progress.step('statistics', tables.length, 'tables');
  for (const t of tables) {
    await client.query(`ANALYZE ${quote(t.name)}`);
    stats.add(1);
  }
  stats.end();
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
 * Copies one table with COPY … FROM STDIN: its rows streamed from the SQLite snapshot (one row in
 * memory at a time, gathered into chunks of text) into COPY's text format, written as the server
 * takes them. Returns the rows copied, as the server counted them.
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
  const encode = table.columns.map(copyEncoder);
  const order = table.identity ? ` ORDER BY ${quote(table.identity)}` : '';
  const select = sqlite
    .prepare(`SELECT ${names} FROM ${quote(table.name)}${order}`)
    .raw(true)
    .safeIntegers(true);
  function* chunks(): Generator<string> {
    let chunk = '';
    let rows = 0;
    for (const row of select.iterate() as IterableIterator<unknown[]>) {
      let line = encode[0](row[0]);
      for (let i = 1; i < row.length; i++) line += `\t${encode[i](row[i])}`;
      chunk += `${line}\n`;
      rows++;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        step.add(rows);
        chunk = '';
        rows = 0;
      }
    }
    if (chunk.length > 0) yield chunk;
    step.add(rows);
  }
  const copy = client.query(copyFrom(`COPY ${quote(table.name)} (${names}) FROM STDIN`));
  await pipeline(Readable.from(chunks(), { objectMode: false }), copy);
  step.end();
  return copy.rowCount;
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
