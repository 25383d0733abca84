import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { recordJobRun } from '../observability/jobs';
import { log as logger } from '../observability/logger';
import type { DataFolder } from './data-folder';

/** When to back up on a timer, read from BACKUP_INTERVAL_HOURS and BACKUP_KEEP. */
export interface BackupSchedule {
  intervalHours: number;
  keep: number;
}

/** Names of scheduled backups; only these are ever pruned. */
const SCHEDULED = /^taskreward-\d{8}-\d{6}Z?\.tar\.gz$/;

/**
 * The schedule from the environment: BACKUP_INTERVAL_HOURS (e.g. 24; unset or 0 = off) and
 * BACKUP_KEEP (how many scheduled backups to keep, default 7). Throws on values that are not
 * positive numbers, so a typo does not silently turn backups off.
 */
export function readBackupSchedule(env: NodeJS.ProcessEnv = process.env): BackupSchedule | null {
  const hoursText = env.BACKUP_INTERVAL_HOURS?.trim();
  if (!hoursText || hoursText === '0') return null;
  const intervalHours = Number(hoursText);
  if (!Number.isFinite(intervalHours) || intervalHours <= 0) {
    throw new Error(`BACKUP_INTERVAL_HOURS must be a positive number of hours, not "${hoursText}"`);
  }
  const keepText = env.BACKUP_KEEP?.trim() || '7';
  const keep = Number(keepText);
  if (!Number.isInteger(keep) || keep < 1) {
    throw new Error(`BACKUP_KEEP must be a whole number of at least 1, not "${keepText}"`);
  }
  return { intervalHours, keep };
}

/** The file name of a scheduled backup made at `at` (UTC, sorts by time). */
export function scheduledBackupName(at: Date): string {
  const iso = at.toISOString(); // 2026-11-23T10:04:05.123Z
  return `taskreward-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}Z.tar.gz`;
}

/** The scheduled backups in the backups folder, oldest first. */
export async function listScheduledBackups(folder: DataFolder): Promise<string[]> {
  try {
    return (await readdir(folder.backupsDir)).filter((n) => SCHEDULED.test(n)).sort();
  } catch {
    return [];
  }
}

/** Deletes all but the newest `keep` scheduled backups (hand-made files in the folder are left alone). */
export async function pruneBackups(folder: DataFolder, keep: number): Promise<string[]> {
  const names = await listScheduledBackups(folder);
  const doomed = names.slice(0, Math.max(0, names.length - keep));
  for (const name of doomed) await rm(join(folder.backupsDir, name), { force: true });
  return doomed;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** The scheduled backup's name among the background jobs (logs, metrics, the System screen). */
export const BACKUP_JOB = 'scheduled-backup';

export interface ScheduleHandle {
  stop(): void;
  /** Resolves when the backup under way (if any) has finished. */
  idle(): Promise<void>;
}

/**
 * Backs up into DataFolder.backupsDir every `intervalHours`, then keeps the newest `keep`. The
 * first run comes one interval after the newest existing backup (a minute after start when that
 * is overdue, or one interval if shorter), so a server restarted daily still backs up daily.
 * `run` makes one archive (the server spawns its own `backup` command, so the copy never runs
 * on its event loop).
 */
export function startBackupSchedule(
  folder: DataFolder,
  schedule: BackupSchedule,
  run: (file: string) => Promise<void>,
  options: { log?: (line: string) => void; firstDelayMs?: number; now?: () => Date } = {},
): ScheduleHandle {
  const log = options.log ?? ((line: string) => logger().info(line));
  const now = options.now ?? (() => new Date());
  const intervalMs = schedule.intervalHours * 3_600_000;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let current: Promise<void> = Promise.resolve();

  const once = async () => {
    const file = join(folder.backupsDir, scheduledBackupName(now()));
    const started = performance.now();
    try {
      await run(file);
      const pruned = await pruneBackups(folder, schedule.keep);
      const bytes = (await stat(file).catch(() => null))?.size ?? 0;
      log(`scheduled backup written to ${file}${pruned.length ? ` (removed ${pruned.length} old)` : ''}`);
      recordJobRun(
        BACKUP_JOB,
        { ok: true, counts: { archiveBytes: bytes, pruned: pruned.length } },
        performance.now() - started,
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log(`scheduled backup failed: ${message}`);
      recordJobRun(BACKUP_JOB, { ok: false, error: message }, performance.now() - started);
    }
  };
  const arm = (delay: number) => {
    if (stopped) return;
    // setTimeout holds at most ~24.8 days: longer waits go in hops
    const hop = Math.min(delay, MAX_TIMER_MS);
    timer = setTimeout(() => {
      if (delay > MAX_TIMER_MS) arm(delay - MAX_TIMER_MS);
      else current = once().finally(() => arm(intervalMs));
    }, hop);
    timer.unref();
  };
  void (async () => {
    const names = await listScheduledBackups(folder);
    // soon after start, but never sooner than an interval as short as that
    let delay = Math.min(options.firstDelayMs ?? 60_000, intervalMs);
    const newest = names.at(-1);
    if (newest) {
      const made = (await stat(join(folder.backupsDir, newest)).catch(() => null))?.mtimeMs ?? 0;
      delay = Math.max(delay, made + intervalMs - now().getTime());
    }
    arm(delay);
  })();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    idle: () => current,
  };
}
