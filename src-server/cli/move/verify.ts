import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { type MovedTable, quote } from './tables';

/** The tables whose every row is digested on both sides: the money and the record of who did what. */
export const DIGESTED_TABLES = ['ledger', 'audit_log'] as const;

const PAGE = 5_000;

/** One value in one spelling for both engines: integers as digits, flags as 0/1, bytes as hex. */
function canonical(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v)) return v.toString('hex');
  if (typeof v === 'boolean') return v ? '1' : '0';
  return String(v);
}

function hashRows(hash: ReturnType<typeof createHash>, rows: unknown[][]): void {
  for (const row of rows) hash.update(`${JSON.stringify(row.map(canonical))}\n`);
}

/** sha256 of a table's rows in id order, read from the SQLite snapshot. */
export function sqliteDigest(sqlite: Database.Database, table: MovedTable): string {
  const hash = createHash('sha256');
  const names = table.columns.map((c) => quote(c.name)).join(', ');
  const key = quote(table.identity ?? 'rowid');
  const rows = sqlite
    .prepare(`SELECT ${names} FROM ${quote(table.name)} ORDER BY ${key}`)
    .raw(true)
    .iterate() as IterableIterator<unknown[]>;
  for (const row of rows) hashRows(hash, [row]);
  return hash.digest('hex');
}

/** The same digest of the PostgreSQL rows, page by page in id order (memory stays flat). */
export async function pgDigest(client: pg.ClientBase, table: MovedTable): Promise<string> {
  if (!table.identity) throw new Error(`${table.name} has no id to order its rows by`);
  const hash = createHash('sha256');
  const names = table.columns.map((c) => quote(c.name)).join(', ');
  const id = quote(table.identity);
  const at = table.columns.findIndex((c) => c.name === table.identity);
  let after: unknown = null;
  for (;;) {
    const res: pg.QueryArrayResult<unknown[]> = await client.query({
      text: `SELECT ${names} FROM ${quote(table.name)} WHERE ($1::bigint IS NULL OR ${id} > $1::bigint) ORDER BY ${id} LIMIT ${PAGE}`,
      values: [after],
      rowMode: 'array',
    });
    hashRows(hash, res.rows);
    if (res.rows.length < PAGE) break;
    after = res.rows[res.rows.length - 1][at];
  }
  return hash.digest('hex');
}

/** Users whose balance is not the sum of their ledger rows (none, when the money is right). */
const BALANCE_MISMATCHES = `
  SELECT count(*) AS n FROM users u
  LEFT JOIN (SELECT user_id, sum(amount) AS total FROM ledger GROUP BY user_id) l ON l.user_id = u._id
  WHERE coalesce(l.total, 0) <> u.balance`;

export function sqliteBalanceMismatches(sqlite: Database.Database): number {
  return (sqlite.prepare(BALANCE_MISMATCHES).get() as { n: number }).n;
}

export async function pgBalanceMismatches(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ n: number | string }>(BALANCE_MISMATCHES);
  return Number(rows[0]?.n ?? -1);
}

/** The sum of every balance (one more number the two sides must agree on). */
export function sqliteBalanceTotal(sqlite: Database.Database): number {
  return (sqlite.prepare('SELECT coalesce(sum(balance), 0) AS n FROM users').get() as { n: number }).n;
}

export async function pgBalanceTotal(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ n: number | string }>(
    'SELECT coalesce(sum(balance), 0) AS n FROM users',
  );
  return Number(rows[0]?.n ?? -1);
}

export async function pgCount(client: pg.ClientBase, table: string): Promise<number> {
  const { rows } = await client.query<{ n: number | string }>(`SELECT count(*) AS n FROM ${quote(table)}`);
  return Number(rows[0]?.n ?? -1);
}
