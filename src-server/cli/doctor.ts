import { existsSync } from 'node:fs';
import { openDatabase } from '../db/database';
import { latestMigrationName } from '../db/migrate';
import { checkStatCounters } from '../features/admin-stats/stat-doctor';
import { checkDeletedUsers } from '../features/admin-users/deleted-user-doctor';
import { checkAppeals } from '../features/appeals/appeal-doctor';
import { checkAuditLedger } from '../features/audit/audit-doctor';
import { checkFlags } from '../features/fraud/flag-doctor';
import { runMoneyChecks } from '../features/money/doctor';
import { checkTaskRecords } from '../features/tasks/task-doctor';
import { lastAppliedMigration } from '../storage/backup';
import { referencedFiles } from '../storage/backup-files';
import { DataFolder } from '../storage/data-folder';
import { FILE_KINDS, type FileStore, fileStoreFor, LocalFileStore } from '../storage/file-store';
import { type Command, configWith } from './command';

/** One thing the doctor found wrong, grouped by the check that found it. */
export interface Finding {
  check:
    | 'database'
    | 'integrity'
    | 'foreign_keys'
    | 'migrations'
    | 'money'
    | 'stats'
    | 'tasks'
    | 'users'
    | 'audit'
    | 'flags'
    | 'missing_file'
    | 'orphan_file';
  message: string;
}

async function fileChecks(store: FileStore, refs: Awaited<ReturnType<typeof referencedFiles>>) {
  const out: Finding[] = [];
  const named = new Set(refs.map((r) => `${r.kind}/${r.name}`));
  const onDisk = new Set<string>();
  for (const kind of FILE_KINDS) {
    for (const name of await store.list(kind)) onDisk.add(`${kind}/${name}`);
  }
  for (const r of refs) {
    if (!onDisk.has(`${r.kind}/${r.name}`)) {
      out.push({
        check: 'missing_file',
        message: `${r.owner} names ${r.kind}/${r.name}, which is not stored`,
      });
    }
  }
  for (const path of onDisk) {
    if (!named.has(path))
      out.push({ check: 'orphan_file', message: `stored file ${path} is named by no row` });
  }
  return out;
}

/**
 * Examines a data folder without changing it: SQLite's integrity and foreign-key checks, the
 * migrations, the money invariants (runMoneyChecks), the dashboard's counters against a recount, rows naming files that are not stored and
 * stored files no row names. Returns what is wrong; empty when all is well. Safe while a
 * server runs (an upload caught between its file and its row may show as an orphan once).
 * `store` is where the files are: the folder's own files/ unless the config names a bucket.
 */
export async function runDoctor(
  folder: DataFolder,
  store: FileStore = new LocalFileStore(folder),
): Promise<Finding[]> {
  if (!existsSync(folder.dbFile)) {
    return [{ check: 'database', message: `there is no database at ${folder.dbFile}` }];
  }
  let opened: ReturnType<typeof openDatabase>;
  try {
    opened = openDatabase(folder.dbFile);
  } catch (err) {
    return [{ check: 'integrity', message: `the database cannot be opened: ${(err as Error).message}` }];
  }
  const { db, sqlite } = opened;
  try {
    let damaged: string[];
    try {
      const integrity = sqlite.pragma('integrity_check') as { integrity_check: string }[];
      damaged = integrity.map((r) => r.integrity_check).filter((m) => m !== 'ok');
    } catch (err) {
      damaged = [(err as Error).message];
    }
    if (damaged.length > 0) {
      // the other checks would read a damaged file: stop here
      return damaged.map((message) => ({ check: 'integrity', message: `SQLite integrity: ${message}` }));
    }
    const out: Finding[] = [];
    const fks = sqlite.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
    for (const fk of fks) {
      out.push({
        check: 'foreign_keys',
        message: `${fk.table} row ${fk.rowid} points at a missing ${fk.parent} row`,
      });
    }
    const applied = await lastAppliedMigration(db).catch(() => '');
    const latest = latestMigrationName();
    if (applied !== latest) {
      const newer = applied > latest;
      out.push({
        check: 'migrations',
        message: newer
          ? `the database is at migration "${applied}", newer than this version knows ("${latest}"): upgrade`
          : `the database is at migration "${applied || 'none'}" but this version expects "${latest}": run migrate`,
      });
      return out;
    }
    for (const p of await runMoneyChecks(db)) out.push({ check: 'money', message: p.message });
    for (const message of await checkStatCounters(db)) out.push({ check: 'stats', message });
    for (const message of await checkTaskRecords(db)) out.push({ check: 'tasks', message });
    for (const message of await checkAppeals(db)) out.push({ check: 'tasks', message });
    for (const message of await checkDeletedUsers(db)) out.push({ check: 'users', message });
    for (const message of await checkAuditLedger(db)) out.push({ check: 'audit', message });
    for (const message of await checkFlags(db)) out.push({ check: 'flags', message });
    out.push(...(await fileChecks(store, await referencedFiles(db))));
    return out;
  } finally {
    await db.destroy();
  }
}

/** `doctor`: prints what is wrong with the data folder; exit code 1 when anything is. */
export const doctorCommand: Command = {
  summary: 'check the database, the money rules and the stored files; exit 1 on a problem',
  usage: 'doctor [--data DIR]',
  details:
    "Runs SQLite's integrity and foreign-key checks, checks the migrations and the money\n" +
    "invariants, recounts the dashboard's counters, checks the audit log and the fraud flags, and compares stored files\n" +
    'with the rows that name them. Changes nothing.',
  options: { data: { type: 'string' } },
  async run(v) {
    const config = configWith(v);
    const folder = new DataFolder(config.dataDir);
    const store = fileStoreFor(config);
    const findings = await runDoctor(folder, store);
    if (findings.length === 0) {
      console.log(`all checks passed for ${folder.root}${store.shared ? ` and ${store.description}` : ''}`);
      return 0;
    }
    for (const f of findings) console.error(`${f.check}: ${f.message}`);
    console.error(`${findings.length} problem(s) found in ${folder.root}`);
    return 1;
  },
};
