import type Database from 'better-sqlite3';
import type pg from 'pg';

/**
 * What the move copies, read from the two schemas themselves rather than from a list in the code:
 * tables are added by every other change, and a list kept here would silently leave the next one
 * behind in the SQLite file.
 */

/** Kysely's bookkeeping: the target gets its own by migrating, and the two are compared instead. */
const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/** One column as the move writes it: its name and the target's type (for the unnest casts). */
export interface MovedColumn {
  name: string;
  /** format_type() of the PostgreSQL column: bigint, integer, text, boolean, bytea... */
  pgType: string;
}

export interface MovedTable {
  name: string;
  columns: MovedColumn[];
  /** The identity column of the PostgreSQL twin (the ledger's and audit log's `id`), if any. */
  identity: string | null;
}

/** Quotes an identifier for either engine (both take double quotes). */
export function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The app's tables of the SQLite file: ordinary tables of the main schema, without SQLite's own
 * (sqlite_sequence...), the full-text index and its shadow tables (rebuilt by the twin's own
 * means) and Kysely's migration bookkeeping.
 */
export function sqliteTables(sqlite: Database.Database): string[] {
  const rows = sqlite.prepare('PRAGMA table_list').all() as { schema: string; name: string; type: string }[];
  return rows
    .filter((r) => r.schema === 'main' && r.type === 'table')
    .map((r) => r.name)
    .filter((name) => !name.startsWith('sqlite_') && !MIGRATION_TABLES.has(name))
    .sort();
}

export function sqliteColumns(sqlite: Database.Database, table: string): string[] {
  const rows = sqlite.prepare(`PRAGMA table_xinfo(${quote(table)})`).all() as {
    name: string;
    hidden: number;
  }[];
  // hidden 2 and 3 are generated columns: computed again on the other side
  return rows.filter((r) => r.hidden === 0).map((r) => r.name);
}

interface PgColumnRow {
  table: string;
  column: string;
  type: string;
  generated: string;
  identity: string;
}

/**
 * Pairs every SQLite table with its PostgreSQL twin, column by column. A table or column of the
 * file that the target lacks is a schema the move cannot carry (the caller refuses); a column
 * only the twin has (a generated one, say) is left to its default.
 */
export async function pairTables(
  sqlite: Database.Database,
  client: pg.ClientBase,
): Promise<{ tables: MovedTable[]; missing: string[] }> {
  const { rows } = await client.query<PgColumnRow>(`
    SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
      a.attgenerated AS generated, a.attidentity AS identity
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p')
      AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
    ORDER BY c.relname, a.attnum`);
  const twin = new Map<string, PgColumnRow[]>();
  for (const r of rows) twin.set(r.table, [...(twin.get(r.table) ?? []), r]);
  const tables: MovedTable[] = [];
  const missing: string[] = [];
  for (const name of sqliteTables(sqlite)) {
    const target = twin.get(name);
    if (!target) {
      missing.push(`table ${name}`);
      continue;
    }
    const byName = new Map(target.map((c) => [c.column, c]));
    const columns: MovedColumn[] = [];
    for (const column of sqliteColumns(sqlite, name)) {
      const t = byName.get(column);
      if (t && t.generated === '') columns.push({ name: column, pgType: t.type });
      else missing.push(`column ${name}.${column}`);
    }
    const identity = target.find((c) => c.identity !== '')?.column ?? null;
    tables.push({ name, columns, identity });
  }
  return { tables, missing };
}

/**
 * The tables in an order that inserts every referenced row before the rows naming it, from the
 * target's foreign keys (a table naming itself is left to the order of its rows). Throws on a
 * cycle, which no schema of the app has.
 */
export async function dependencyOrder(client: pg.ClientBase, tables: MovedTable[]): Promise<MovedTable[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(`
    SELECT c.relname AS child, p.relname AS parent
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
    WHERE k.contype = 'f'
      AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())`);
  const byName = new Map(tables.map((t) => [t.name, t]));
  const parents = new Map<string, Set<string>>();
  for (const r of rows) {
    if (r.child === r.parent || !byName.has(r.child) || !byName.has(r.parent)) continue;
    parents.set(r.child, (parents.get(r.child) ?? new Set()).add(r.parent));
  }
  const out: MovedTable[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (done.has(name)) return;
    if (visiting.has(name)) throw new Error(`the foreign keys of ${name} form a cycle`);
    visiting.add(name);
    for (const parent of [...(parents.get(name) ?? [])].sort()) visit(parent);
    visiting.delete(name);
    done.add(name);
    out.push(byName.get(name) as MovedTable);
  };
  for (const t of tables) visit(t.name);
  return out;
}
