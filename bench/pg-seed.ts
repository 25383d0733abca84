// The PostgreSQL half of the bench's seeding: the data bench/seed.ts wrote into a
// SQLite folder, copied into a fresh PostgreSQL database whose schema comes from the app's own
// migrations (`DATABASE_URL=… main.cjs migrate`). Every table the two engines share is copied
// whole, in foreign-key order, by batched `INSERT … SELECT * FROM unnest($1::text[], …)`, with
// `session_replication_role = replica` so that no trigger runs during the copy: the stat counters
// (kept by triggers on both engines) and the audit log are copied as SQLite holds them, and the
// ledger's and the log's no-change triggers do not refuse the emptying of what `migrate` wrote.
// Then the identity sequences (ledger.id, audit_log.id) are set past the copied ids, and ANALYZE.
//
// The result is kept as a template database: each measured configuration runs on its own clone
// (CREATE DATABASE … TEMPLATE, a file copy), so every one starts from the same seeded state.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SERVER_ENTRY } from '../faults/server';
import { withDatabase as databaseUrl, withPgClient as withClient } from '../src-server/db/test-databases';

export { withDatabase as databaseUrl, withPgClient as withClient } from '../src-server/db/test-databases';

/** The app relies on C ordering (docs/postgres-port-survey.md): every bench database is made so. */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  await withClient(adminUrl, (c) =>
    c.query(
      template
        ? `CREATE DATABASE "${name}" TEMPLATE "${template}"`
        : `CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'`,
    ),
  );
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** PostgreSQL's types of the app's columns, as the unnest casts name them. */
const CAST: Record<string, string> = {
  text: 'text',
  'character varying': 'text',
  bigint: 'bigint',
  integer: 'int',
  smallint: 'smallint',
  'double precision': 'float8',
  real: 'float4',
  boolean: 'bool',
};

/** The tables in an order where every table comes after the tables its foreign keys name. */
function fkOrder(tables: string[], edges: { child: string; parent: string }[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string, path: Set<string>) => {
    if (seen.has(t) || path.has(t)) return;
    path.add(t);
    for (const e of edges) if (e.child === t && e.parent !== t) visit(e.parent, path);
    seen.add(t);
    out.push(t);
  };
  for (const t of [...tables].sort()) visit(t, new Set());
  return out;
}

export interface PgSeedResult {
  /** Rows copied per table. */
  rows: Record<string, number>;
  /** Wall time: create + migrate, the copy, sequences + ANALYZE. */
  ms: { migrate: number; copy: number; analyze: number; total: number };
  /** pg_database_size of the copy. */
  bytes: number;
  /** SQLite tables with no PostgreSQL twin (the FTS5 tables: PostgreSQL searches with pg_trgm). */
  skipped: string[];
}

/**
 * Creates database `name` at `adminUrl`'s server, migrates it with the app, and copies the SQLite
 * database `sqliteFile` into it. `adminUrl` must be allowed to create databases and to set
 * session_replication_role (a superuser, or the owner on PostgreSQL 15+ with that right).
 */
export async function copyToPostgres(
  sqliteFile: string,
  adminUrl: string,
  name: string,
  log: (m: string) => void = () => {},
): Promise<PgSeedResult> {
  const t0 = performance.now();
  await createDatabase(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  // the app's own schema; the data folder only holds what a node keeps locally (no database)
  const scratch = mkdtempSync(join(tmpdir(), 'taskreward-pg-migrate-'));
  try {
    const migrated = spawnSync(process.execPath, [SERVER_ENTRY, 'migrate'], {
      // a node on DATABASE_URL refuses to start without TOKEN_SECRET; migrate signs nothing, so
      // any secret of the required length does (the app nodes later get the folder's own)
      env: {
        ...process.env,
        DATA_DIR: scratch,
        DATABASE_URL: url,
        ADMIN_EMAIL: '',
        ADMIN_PASSWORD: '',
        TOKEN_SECRET: process.env.TOKEN_SECRET ?? 'bench-migrate-only-secret-0123456789abcdef',
      },
      encoding: 'utf8',
    });
    if (migrated.status !== 0)
      throw new Error(`migrate on PostgreSQL failed:\n${migrated.stdout}${migrated.stderr}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const tMigrated = performance.now();

  const sqlite = new Database(sqliteFile, { readonly: true });
  const rows: Record<string, number> = {};
  let skipped: string[] = [];
  await withClient(url, async (c) => {
    const columns = (
      await c.query<{ table_name: string; column_name: string; data_type: string; is_identity: string }>(
        `SELECT table_name, column_name, data_type, is_identity FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%' ORDER BY table_name, ordinal_position`,
      )
    ).rows;
    const edges = (
      await c.query<{ child: string; parent: string }>(
        `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent
         FROM pg_constraint WHERE contype = 'f'`,
      )
    ).rows;
    const pgTables = [...new Set(columns.map((col) => col.table_name))];
    const sqliteTables = new Set(
      (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    skipped = [...sqliteTables].filter(
      (t) => !pgTables.includes(t) && !t.startsWith('kysely_') && !t.startsWith('sqlite_'),
    );
    const order = fkOrder(pgTables, edges);

    await c.query('BEGIN');
    await c.query('SET LOCAL session_replication_role = replica');
    // what `migrate` wrote (the audit log's first row): replaced by the seeded folder's rows
    for (const table of [...order].reverse()) await c.query(`DELETE FROM "${table}"`);
    for (const table of order) {
      rows[table] = 0;
      if (!sqliteTables.has(table)) continue;
      const have = new Set(
        (sqlite.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map(
          (r) => r.name,
        ),
      );
      const cols = columns.filter((col) => col.table_name === table && have.has(col.column_name));
      const missing = columns.filter((col) => col.table_name === table && !have.has(col.column_name));
      if (missing.length)
        log(
          `  ${table}: ${missing.map((m) => m.column_name).join(', ')} not in SQLite (PostgreSQL's defaults)`,
        );
      const casts = cols.map((col) => {
        const cast = CAST[col.data_type];
        if (!cast) throw new Error(`${table}.${col.column_name}: no copy for type ${col.data_type}`);
        return cast;
      });
      const identity = cols.some((col) => col.is_identity === 'YES');
      const insert =
        `INSERT INTO "${table}" (${cols.map((col) => `"${col.column_name}"`).join(', ')})` +
        (identity ? ' OVERRIDING SYSTEM VALUE' : '') +
        ` SELECT * FROM unnest(${casts.map((cast, i) => `$${i + 1}::${cast}[]`).join(', ')})`;
      const select = sqlite.prepare(
        `SELECT ${cols.map((col) => `"${col.column_name}"`).join(', ')} FROM "${table}"`,
      );
      select.raw(true);
      const batch = 10_000;
      let buffers: unknown[][] = cols.map(() => []);
      const flush = async () => {
        if (buffers[0].length === 0) return;
        await c.query(insert, buffers);
        rows[table] += buffers[0].length;
        buffers = cols.map(() => []);
      };
      for (const row of select.iterate() as Iterable<unknown[]>) {
        for (let i = 0; i < row.length; i++) {
          const v = row[i];
          buffers[i].push(casts[i] === 'bool' && v !== null ? Boolean(v) : v);
        }
        if (buffers[0].length >= batch) await flush();
      }
      await flush();
    }
    await c.query('COMMIT');
    for (const col of columns.filter((x) => x.is_identity === 'YES')) {
      await c.query(
        `SELECT setval(pg_get_serial_sequence('"${col.table_name}"', '${col.column_name}'),
                       coalesce((SELECT max("${col.column_name}") FROM "${col.table_name}"), 0) + 1, false)`,
      );
    }
  });
  sqlite.close();
  const tCopied = performance.now();
  let bytes = 0;
  await withClient(url, async (c) => {
    await c.query('ANALYZE');
    bytes = Number(
      (await c.query<{ b: string }>('SELECT pg_database_size(current_database()) AS b')).rows[0].b,
    );
  });
  const tDone = performance.now();
  log(
    `  copied ${Object.entries(rows)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`)
      .join(', ')} in ${((tCopied - tMigrated) / 1000).toFixed(1)} s`,
  );
  return {
    rows,
    ms: {
      migrate: tMigrated - t0,
      copy: tCopied - tMigrated,
      analyze: tDone - tCopied,
      total: tDone - t0,
    },
    bytes,
    skipped,
  };
}
