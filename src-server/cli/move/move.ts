import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, type PostgresPool, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config';
import { type Db, openDatabase } from '../../db/database';
import { latestMigrationName, migrateToLatest } from '../../db/migrate';
import { openPostgres, pgTypes } from '../../db/postgres';
import type { DB } from '../../db/schema';
import { referencedFiles } from '../../storage/backup-files';
import { DataFolder } from '../../storage/data-folder';
import { LocalFileStore, openFileStore } from '../../storage/file-store';
import { lockHolder } from '../../storage/lock';
import { type Finding, runDoctor } from '../doctor';
import { selfCommand } from '../self';
import { carrySequences, copyTable, finishTarget, prepareTarget, sqliteCounts } from './copy';
import { copyFiles, fileMismatches, sourceFiles, storeIsFolder } from './files';
import type { Progress } from './progress';
import { dependencyOrder, pairTables, quote, sqliteTables } from './tables';
import {
  DIGESTED_TABLES,
  pgBalanceMismatches,
  pgBalanceTotal,
  pgCount,
  pgDigest,
  sqliteBalanceMismatches,
  sqliteBalanceTotal,
  sqliteDigest,
} from './verify';

/** The move would not start (or stopped before committing): the target is as it was. */
export class MoveRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoveRefused';
  }
}

/** The settings the move reads: the folder, the target database and the nodes' file store. */
export type MoveConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 's3' | 'filesDir'>;

/** What the move compared, for the operator. */
export interface MoveReport {
  tables: { name: string; rows: number }[];
  balances: { users: number; total: number };
  digests: { table: string; rows: number; sha256: string }[];
  files: { checked: number; written: number; store: string; copied: boolean };
  sequences: Record<string, number>;
  seconds: number;
}

/**
 * How the folder's own doctor is run before the move: in this process (the tests, which call the
 * move as a function) or, from the command, in a child process of this same program (the bundle,
 * or the single binary), so that the memory its checks take over a big folder is given back
 * before the copy starts instead of adding to the move's own.
 */
export type SourceDoctor = (folder: DataFolder) => Promise<Finding[]>;

export const doctorInProcess: SourceDoctor = (folder) =>
  runDoctor(folder, { databaseUrl: null, store: new LocalFileStore(folder) });

export const doctorInChild: SourceDoctor = (folder) => {
  const { command, args } = selfCommand(['doctor', '--data', folder.root, '--json']);
  // the folder's doctor: its SQLite file and its own files/, whatever the move's target is
  const env = { ...process.env };
  for (const key of ['DATABASE_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_PREFIX', 'FILES_DIR', 'DATA_DIR'])
    delete env[key];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        const findings = JSON.parse(last) as Finding[];
        if (Array.isArray(findings) && (code === 0 || code === 1)) return resolve(findings);
      } catch {
        // not the doctor's answer: said below
      }
      reject(
        new Error(
          `doctor on the folder ended with ${signal ?? `exit ${code}`}: ${(err || out).trim().slice(-500)}`,
        ),
      );
    });
  });
};

/** A database client of the move's own: no statement timeout (a table of a million rows). */
function moveClient(url: string): pg.Client {
  return new pg.Client({
    connectionString: url,
    application_name: 'taskreward-move',
    options: '-c TimeZone=UTC -c statement_timeout=0 -c lock_timeout=30000',
    types: pgTypes,
  });
}

/** Kysely on that one client, so the doctor's checks read the move's uncommitted transaction. */
function kyselyOn(client: pg.Client): Kysely<DB> {
  const pool: PostgresPool = {
    connect: async () => Object.assign(client, { release() {} }),
    end: async () => {},
    options: {},
  };
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/** Row counts of a freshly migrated database: what the migrations themselves put in. */
async function migratedBaseline(): Promise<Map<string, number>> {
  const { db, sqlite } = openDatabase(':memory:');
  try {
    await migrateToLatest(db);
    const out = new Map<string, number>();
    for (const t of sqliteTables(sqlite))
      out.set(t, (sqlite.prepare(`SELECT count(*) AS n FROM ${quote(t)}`).get() as { n: number }).n);
    return out;
  } finally {
    await db.destroy();
  }
}

/** The target's tables (of the current schema) that hold more rows than the migrations put there. */
async function appRowsIn(client: pg.ClientBase, tables: string[]): Promise<string[]> {
  const baseline = await migratedBaseline();
  const out: string[] = [];
  for (const t of tables) {
    const exists = await client.query<{ r: string | null }>('SELECT to_regclass($1) AS r', [quote(t)]);
    if (!exists.rows[0]?.r) continue;
    const n = await pgCount(client, t);
    if (n > (baseline.get(t) ?? 0)) out.push(`${t} (${n})`);
  }
  return out;
}

async function pgLastMigration(client: pg.ClientBase): Promise<string> {
  const exists = await client.query<{ r: string | null }>("SELECT to_regclass('kysely_migration') AS r");
  if (!exists.rows[0]?.r) return '';
  const { rows } = await client.query<{ name: string | null }>(
    'SELECT max(name) AS name FROM kysely_migration',
  );
  return rows[0]?.name ?? '';
}

function refuseIfLocked(folder: DataFolder): void {
  const holder = lockHolder(folder);
  if (holder !== null)
    throw new MoveRefused(
      `the data folder ${folder.root} is in use by a running server (pid ${holder}): stop it first`,
    );
}

/**
 * Moves a SQLite data folder to PostgreSQL (and its files to the nodes' store), all or nothing:
 * the checks that refuse come first and write nothing; the rows go in one transaction that is
 * checked (row counts, ledger against balances, digests, the files, the doctor) before it
 * commits. The folder is only read.
 */
export async function moveToPostgres(
  config: MoveConfig,
  progress: Progress,
  options: { sourceDoctor?: SourceDoctor } = {},
): Promise<MoveReport> {
  const started = performance.now();
  const folder = new DataFolder(config.dataDir);
  if (!config.databaseUrl)
    throw new MoveRefused('set DATABASE_URL to the PostgreSQL database the site moves to');
  if (!existsSync(folder.dbFile)) throw new MoveRefused(`there is no database at ${folder.dbFile}`);
  refuseIfLocked(folder);

  progress.line(`doctor on ${folder.root}`);
  const doctorStarted = performance.now();
  const findings = await (options.sourceDoctor ?? doctorInProcess)(folder);
  progress.line(
    `doctor on the folder: ${findings.length === 0 ? 'all checks passed' : `${findings.length} problem(s)`} ` +
      `in ${((performance.now() - doctorStarted) / 1000).toFixed(1)} s`,
  );
  if (findings.length > 0) {
    throw new MoveRefused(
      `doctor found ${findings.length} problem(s) in ${folder.root}; fix them first:\n` +
        findings.map((f) => `  ${f.check}: ${f.message}`).join('\n'),
    );
  }

  // read-write at the driver's level but query_only: a read-only handle leaves an empty -wal file
  // behind in the folder, where a writable one, the last to close, removes it as the server does
  const sqlite = new Database(folder.dbFile, { fileMustExist: true });
  sqlite.pragma('query_only = ON');
  const snapshot: Db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  const client = moveClient(config.databaseUrl);
  await client.connect();
  try {
    const folderMigration = (
      sqlite.prepare('SELECT max(name) AS name FROM kysely_migration').get() as { name: string | null }
    ).name;
    const appRows = await appRowsIn(client, sqliteTables(sqlite));
    if (appRows.length > 0) {
      throw new MoveRefused(
        `the target database already holds the app's rows: ${appRows.join(', ')}; ` +
          'move into an empty database (create a new one, or drop and recreate this one)',
      );
    }
    let targetMigration = await pgLastMigration(client);
    if (targetMigration !== folderMigration) {
      if (targetMigration > (folderMigration ?? '') || folderMigration !== latestMigrationName()) {
        throw new MoveRefused(
          `the target's schema is at migration "${targetMigration || 'none'}" and the folder's at ` +
            `"${folderMigration}": run the same version of the app on both`,
        );
      }
      progress.line(`migrating the empty target to ${folderMigration}`);
      const { db } = openPostgres(config.databaseUrl, { poolSize: 1, applicationName: 'taskreward-move' });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      targetMigration = await pgLastMigration(client);
      if (targetMigration !== folderMigration)
        throw new MoveRefused(`the target's schema is at "${targetMigration}", not "${folderMigration}"`);
    }

    // one read transaction: every count, row and file name below comes from the same moment
    sqlite.exec('BEGIN');
    const { tables: paired, missing } = await pairTables(sqlite, client);
    if (missing.length > 0)
      throw new MoveRefused(`the target's schema lacks what the folder holds: ${missing.join(', ')}`);
    const tables = await dependencyOrder(client, paired);
    const counts = sqliteCounts(sqlite, tables);
    const refs = await referencedFiles(snapshot);
    const files = await sourceFiles(folder, refs);

    // the files first: they are named by rows, so they must be there when the rows commit
    const store = openFileStore(config);
    const copyTheFiles = !storeIsFolder(folder, config.filesDir, config.s3);
    const written = copyTheFiles ? await copyFiles(folder, store, files, progress) : 0;

    const trx = await kyselyOn(client).startTransaction().execute();
    try {
      // index builds may use more of the server's memory than its default 64 MB, for this transaction only
      await client.query("SET LOCAL maintenance_work_mem = '256MB'");
      const dropped = await prepareTarget(client, tables);
      for (const t of tables) {
        const copied = await copyTable(sqlite, client, t, counts.get(t.name) ?? 0, progress);
        if (copied !== counts.get(t.name))
          throw new Error(`${t.name}: ${copied} rows copied of ${counts.get(t.name)}`);
      }
      const sequences = await carrySequences(sqlite, client, tables);
      await finishTarget(client, tables, dropped, progress);

      // the checks, on the uncommitted rows: a difference rolls everything back
      const problems: string[] = [];
      const tableReport: MoveReport['tables'] = [];
      for (const t of tables) {
        const there = await pgCount(client, t.name);
        const here = counts.get(t.name) ?? 0;
        if (there !== here) problems.push(`${t.name}: ${here} rows in the folder, ${there} in the target`);
        tableReport.push({ name: t.name, rows: here });
      }
      progress.line(
        `compared row counts of ${tables.length} tables: ${problems.length === 0 ? 'equal' : 'DIFFERENT'}`,
      );
      const wrongHere = sqliteBalanceMismatches(sqlite);
      const wrongThere = await pgBalanceMismatches(client);
      const totalHere = sqliteBalanceTotal(sqlite);
      const totalThere = await pgBalanceTotal(client);
      if (wrongHere !== 0 || wrongThere !== 0)
        problems.push(
          `users whose ledger does not sum to their balance: ${wrongHere} in the folder, ${wrongThere} in the target`,
        );
      if (totalHere !== totalThere)
        problems.push(`the balances sum to ${totalHere} kuruş in the folder, ${totalThere} in the target`);
      const users = counts.get('users') ?? 0;
      progress.line(
        `compared each user's ledger sum with the balance: ${users} users, ${wrongHere} and ${wrongThere} ` +
          `differences (folder, target); balances total ${totalHere} = ${totalThere} kuruş`,
      );
      const digests: MoveReport['digests'] = [];
      for (const name of DIGESTED_TABLES) {
        const t = tables.find((x) => x.name === name);
        if (!t) {
          problems.push(`the folder has no ${name} table`);
          continue;
        }
        const here = sqliteDigest(sqlite, t);
        const there = await pgDigest(client, t);
        if (here !== there)
          problems.push(`${name}: the digests differ (${here} in the folder, ${there} in the target)`);
        digests.push({ table: name, rows: counts.get(name) ?? 0, sha256: here });
        progress.line(
          `compared the sha256 of ${name} (${counts.get(name)} rows): ${here === there ? `equal, ${here}` : 'DIFFERENT'}`,
        );
      }
      const fileProblems = await fileMismatches(store, files);
      problems.push(...fileProblems);
      progress.line(
        `compared ${files.length} stored files with ${store.description}: ` +
          `${fileProblems.length === 0 ? 'every one present with its size' : `${fileProblems.length} wrong`}`,
      );
      const targetFindings = await runDoctor(folder, {
        databaseUrl: config.databaseUrl,
        store,
        database: { db: trx as unknown as Db, sqlite: null },
      });
      for (const f of targetFindings) problems.push(`doctor on the target: ${f.check}: ${f.message}`);
      progress.line(
        `doctor on the target: ${targetFindings.length === 0 ? 'all checks passed' : `${targetFindings.length} problem(s)`}`,
      );
      if (problems.length > 0)
        throw new Error(`the copy does not match the folder:\n${problems.map((p) => `  ${p}`).join('\n')}`);
      // a server started on the folder meanwhile could have taken writes the copy lacks
      refuseIfLocked(folder);
      await trx.commit().execute();
      return {
        tables: tableReport,
        balances: { users, total: totalHere },
        digests,
        files: { checked: files.length, written, store: store.description, copied: copyTheFiles },
        sequences,
        seconds: (performance.now() - started) / 1000,
      };
    } catch (err) {
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      throw err;
    }
  } finally {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    // the last connection's close removes the WAL file, which query_only would forbid (it wrote nothing)
    sqlite.pragma('query_only = OFF');
    await snapshot.destroy();
    // (Kysely closes it only if it ever ran a query on it)
    if (sqlite.open) sqlite.close();
    await client.end().catch(() => {});
  }
}
