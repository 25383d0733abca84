import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { latestMigrationName } from '../db/migrate';
import { DataFolder } from '../storage/data-folder';
import type { FileStore } from '../storage/file-store';

let stopping = false;

/** From the first stop signal on, /readyz answers 503 so a load balancer sends no new requests. */
export function markStopping(): void {
  stopping = true;
}

export function isStopping(): boolean {
  return stopping;
}

/** Back to serving (tests). */
export function resetStopping(): void {
  stopping = false;
}

/** A check answers within this, or counts as failing: a probe must not hang on a lost database. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

export type ReadyPart = 'stopping' | 'database' | 'migrations' | 'files';

export interface Readiness {
  ready: boolean;
  failing: ReadyPart[];
  /** What each failing part said, in words for an operator. */
  problems: Partial<Record<ReadyPart, string>>;
}

function withTimeout<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${READY_CHECK_TIMEOUT_MS} ms`)),
      READY_CHECK_TIMEOUT_MS,
    );
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The newest migration the database has applied; throws when it does not answer. */
async function appliedMigration(db: Db): Promise<string> {
  const { rows } = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(db);
  return rows[0]?.name ?? '';
}

async function checkFiles(config: Config, files: FileStore): Promise<void> {
  if (config.s3) {
    // a name no upload ever gets: the bucket answers "no such key" when it is reachable
    await files.read('proofs', `${'0'.repeat(32)}.webp`);
    return;
  }
  const root = config.filesDir ?? new DataFolder(config.dataDir).filesDir;
  if (!(await stat(root)).isDirectory()) throw new Error(`${root} is not a folder`);
  await access(root, constants.R_OK | constants.W_OK);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Whether this node should get requests: not stopping, the database migrated and answering, the files reachable. */
export async function readiness(db: Db, config: Config, store: FileStore): Promise<Readiness> {
  const problems: Readiness['problems'] = {};
  if (stopping) problems.stopping = 'the server is stopping';
  const [database, files] = await Promise.allSettled([
    withTimeout('the database', appliedMigration(db)),
    withTimeout('the file store', checkFiles(config, store)),
  ]);
  if (database.status === 'rejected') problems.database = message(database.reason);
  else if (database.value !== latestMigrationName())
    problems.migrations = `the database is at migration "${database.value || 'none'}", this version needs "${latestMigrationName()}"`;
  if (files.status === 'rejected') problems.files = message(files.reason);
  const failing = Object.keys(problems) as ReadyPart[];
  return { ready: failing.length === 0, failing, problems };
}
