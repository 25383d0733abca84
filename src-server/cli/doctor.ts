import { existsSync } from 'node:fs';
import {
  engineProblems,
  inSnapshot,
  type OpenedDatabase,
  openConfiguredDatabase,
  textOrderingProblems,
} from '../db/database';
import { latestMigrationName } from '../db/migrate';
import { checkAuditActors, checkAuditLedger } from '../features/audit/audit-doctor';
import { checkFlags, checkProofBands } from '../features/fraud/flag-doctor';
import { runMoneyChecks } from '../features/money/doctor';
import { checkStatCounters } from '../features/stats/stat-doctor';
import { checkAppeals } from '../features/submissions/appeal-doctor';
import { checkTaskRecords } from '../features/tasks/task-doctor';
import { checkDeletedUsers } from '../features/users/deleted-user-doctor';
import { lastAppliedMigration } from '../storage/backup';
import { referencedFiles } from '../storage/backup-files';
import { DataFolder } from '../storage/data-folder';
import {
  FILE_KINDS,
  type FileStore,
  LocalFileStore,
  openFileStore,
  SHARED_STORE_GRACE_MS,
} from '../storage/file-store';
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
    | 'proof_bands'
    | 'missing_file'
    | 'orphan_file';
  message: string;
}

async function fileChecks(store: FileStore, refs: Awaited<ReturnType<typeof referencedFiles>>, now: Date) {
  const out: Finding[] = [];
  const named = new Set(refs.map((r) => `${r.kind}/${r.name}`));
  const onDisk = new Set<string>();
  // in a store shared by nodes, a file younger than the clean-up's grace may be an upload on its
  // way to its row, or one a killed node left: the hourly clean-up removes those, not an error
  const young = new Set<string>();
  const freshSince = now.getTime() - SHARED_STORE_GRACE_MS;
  for (const kind of FILE_KINDS) {
    if (store.shared) {
      for (const f of await store.listWithTimes(kind)) {
        onDisk.add(`${kind}/${f.name}`);
        if (f.modified.getTime() > freshSince) young.add(`${kind}/${f.name}`);
      }
    } else for (const name of await store.list(kind)) onDisk.add(`${kind}/${name}`);
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
    if (!named.has(path) && !young.has(path))
      out.push({ check: 'orphan_file', message: `stored file ${path} is named by no row` });
  }
  return out;
}

/**
 * Examines a data folder without changing it: SQLite's integrity and foreign-key checks, the
 * migrations, the money invariants (runMoneyChecks), the dashboard's counters against a recount, rows naming files that are not stored and
 * stored files no row names. Returns what is wrong; empty when all is well. Safe while a
 * server runs (an upload caught between its file and its row may show as an orphan once).
 * `store` is where the files are: the folder's own files/ unless the config names a bucket or a
 * shared folder; in a shared one, a file no row names is reported once it is older than the
 * clean-up's grace (an hour before `now`).
 */
export async function runDoctor(
  folder: DataFolder,
  options: {
    databaseUrl?: string | null;
    store?: FileStore;
    now?: Date;
    /**
     * A database already open (the move checks its target inside its own transaction, before it
     * commits); left open.
     */
    database?: OpenedDatabase;
  } = {},
): Promise<Finding[]> {
  const databaseUrl = options.databaseUrl ?? null;
  const store = options.store ?? new LocalFileStore(folder);
  if (!options.database && !databaseUrl && !existsSync(folder.dbFile)) {
    return [{ check: 'database', message: `there is no database at ${folder.dbFile}` }];
  }
  let opened: OpenedDatabase;
  try {
    opened = options.database ?? openConfiguredDatabase({ databaseUrl, file: folder.dbFile });
  } catch (err) {
    return [{ check: 'integrity', message: `the database cannot be opened: ${(err as Error).message}` }];
  }
  const { db } = opened;
  try {
    const engine = await engineProblems(opened).catch((err: unknown) => ({
      damaged: [`the database cannot be read: ${(err as Error).message}`],
      problems: [],
    }));
    // the other checks would read a damaged file: stop here
    if (engine.damaged.length > 0) return engine.damaged.map((message) => ({ check: 'integrity', message }));
    const out: Finding[] = engine.problems.map((message) => ({
      check: opened.sqlite ? 'foreign_keys' : 'database',
      message,
    }));
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
    for (const message of await textOrderingProblems(opened)) out.push({ check: 'database', message });
    // one consistent picture on PostgreSQL, where other nodes write meanwhile
    const refs = await inSnapshot(db, async (snap) => {
      for (const p of await runMoneyChecks(snap)) out.push({ check: 'money', message: p.message });
      for (const message of await checkStatCounters(snap)) out.push({ check: 'stats', message });
      for (const message of await checkTaskRecords(snap)) out.push({ check: 'tasks', message });
      for (const message of await checkAppeals(snap)) out.push({ check: 'tasks', message });
      for (const message of await checkDeletedUsers(snap)) out.push({ check: 'users', message });
      for (const message of await checkAuditLedger(snap)) out.push({ check: 'audit', message });
      for (const message of await checkAuditActors(snap)) out.push({ check: 'audit', message });
      for (const message of await checkFlags(snap)) out.push({ check: 'flags', message });
      for (const message of await checkProofBands(snap)) out.push({ check: 'proof_bands', message });
      return referencedFiles(snap);
    });
    out.push(...(await fileChecks(store, refs, options.now ?? new Date())));
    return out;
  } finally {
    if (!options.database) await db.destroy();
  }
}

/** `doctor`: prints what is wrong with the data folder; exit code 1 when anything is. */
export const doctorCommand: Command = {
  summary: 'check the database, the money rules and the stored files; exit 1 on a problem',
  usage: 'doctor [--data DIR] [--json]',
  details:
    "Runs SQLite's integrity and foreign-key checks (on PostgreSQL: its encoding, extensions and\n" +
    'that the text columns order byte by byte), checks the migrations and the money\n' +
    "invariants, recounts the dashboard's counters, checks the audit log, the fraud flags and the proofs' lookup bands, and compares stored files\n" +
    'with the rows that name them. Changes nothing. --json prints the findings as one JSON array.',
  options: { data: { type: 'string' }, json: { type: 'boolean' } },
  async run(v) {
    const config = configWith(v);
    const folder = new DataFolder(config.dataDir);
    const store = openFileStore(config);
    const findings = await runDoctor(folder, { databaseUrl: config.databaseUrl, store });
    if (v.json) {
      console.log(JSON.stringify(findings));
      return findings.length === 0 ? 0 : 1;
    }
    if (findings.length === 0) {
      console.log(`all checks passed for ${folder.root}${store.shared ? ` and ${store.description}` : ''}`);
      return 0;
    }
    for (const f of findings) console.error(`${f.check}: ${f.message}`);
    console.error(`${findings.length} problem(s) found in ${folder.root}`);
    return 1;
  },
};
