import { readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import {
  BACKUP_STALE_DAYS,
  DISK_LOW_PERCENT,
  MAIL_STUCK_MINUTES,
  type SystemDto,
  type SystemJobDto,
  type SystemQueueDto,
  type SystemWarningDto,
} from '../../contract/system';
import { isPostgres } from '../../db/dialect';
import type { AppDeps } from '../../deps';
import { jobRunRecords } from '../../observability/jobs';
import { APP_VERSION } from '../../storage/backup';
import { BACKUP_JOB, readBackupSchedule } from '../../storage/backup-schedule';
import { DataFolder } from '../../storage/data-folder';
import { outboxStatus } from '../mail/outbox.repository';

const startedAt = new Date(Date.now() - process.uptime() * 1000);

async function databaseBytes(deps: Pick<AppDeps, 'db' | 'config'>): Promise<number | null> {
  try {
    if (isPostgres(deps.db)) {
      const { rows } = await sql<{ n: number }>`select pg_database_size(current_database()) as n`.execute(
        deps.db,
      );
      return Number(rows[0]?.n ?? 0);
    }
    const file = new DataFolder(deps.config.dataDir).dbFile;
    let total = 0;
    for (const f of [file, `${file}-wal`]) total += (await stat(f).catch(() => null))?.size ?? 0;
    return total;
  } catch {
    return null;
  }
}

/** The app nodes connected to the PostgreSQL database now, by the name each gives its connections. */
async function connectedNodes(deps: Pick<AppDeps, 'db' | 'config'>): Promise<string[]> {
  if (!isPostgres(deps.db)) return [deps.config.nodeName];
  try {
    const { rows } = await sql<{ name: string }>`
      select distinct substr(application_name, 12) as name from pg_stat_activity
      where datname = current_database() and application_name like 'taskreward:%'
      order by 1`.execute(deps.db);
    return rows.map((r) => r.name);
  } catch {
    return [deps.config.nodeName];
  }
}

async function newestBackup(folder: DataFolder): Promise<{ name: string; at: string; bytes: number } | null> {
  const names = await readdir(folder.backupsDir).catch(() => [] as string[]);
  let newest: { name: string; at: string; bytes: number; ms: number } | null = null;
  for (const name of names.filter((n) => n.endsWith('.tar.gz'))) {
    const s = await stat(join(folder.backupsDir, name)).catch(() => null);
    if (s?.isFile() && (!newest || s.mtimeMs > newest.ms))
      newest = { name, at: s.mtime.toISOString(), bytes: s.size, ms: s.mtimeMs };
  }
  return newest ? { name: newest.name, at: newest.at, bytes: newest.bytes } : null;
}

function backupMode(
  deps: Pick<AppDeps, 'config' | 'files'>,
  schedule: ReturnType<typeof readBackupSchedule>,
): SystemDto['backup']['mode'] {
  if (deps.config.cluster) return 'database_tools';
  if (!schedule) return 'off';
  return deps.files.shared ? 'files_elsewhere' : 'scheduled';
}

function warningsFor(dto: Omit<SystemDto, 'warnings'>, now: Date): SystemWarningDto[] {
  const warnings: SystemWarningDto[] = [];
  if (dto.disk && dto.disk.totalBytes > 0) {
    const freePercent = (dto.disk.freeBytes / dto.disk.totalBytes) * 100;
    if (freePercent < DISK_LOW_PERCENT)
      warnings.push({ code: 'disk_low', freePercent: Math.floor(freePercent) });
  }
  if (dto.backup.mode === 'scheduled') {
    if (!dto.backup.last) warnings.push({ code: 'backup_none' });
    else {
      const days = (now.getTime() - Date.parse(dto.backup.last.at)) / 86_400_000;
      if (days >= BACKUP_STALE_DAYS) warnings.push({ code: 'backup_old', days: Math.floor(days) });
    }
    if (dto.backup.lastRun && !dto.backup.lastRun.lastOk)
      warnings.push({ code: 'backup_failing', error: dto.backup.lastRun.lastError ?? '' });
  }
  for (const job of dto.jobs) {
    if (job.name !== BACKUP_JOB && !job.lastOk)
      warnings.push({ code: 'job_failing', job: job.name, error: job.lastError ?? '' });
  }
  for (const q of dto.queues)
    if (q.waiting >= q.maxWaiting) warnings.push({ code: 'queue_full', queue: q.name });
  if (dto.mail.oldestPendingAt) {
    const minutes = Math.floor((now.getTime() - Date.parse(dto.mail.oldestPendingAt)) / 60_000);
    if (minutes >= MAIL_STUCK_MINUTES) warnings.push({ code: 'mail_stuck', minutes });
  }
  if (dto.mail.failedLastWeek > 0) warnings.push({ code: 'mail_failed', count: dto.mail.failedLastWeek });
  return warnings;
}

/** Everything the System screen shows, read now. */
export async function systemStatus(
  deps: Pick<AppDeps, 'db' | 'config' | 'work' | 'clock' | 'mail' | 'files'>,
): Promise<SystemDto> {
  const folder = new DataFolder(deps.config.dataDir);
  const disk = await statfs(folder.root)
    .then((s) => ({ path: folder.root, freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize }))
    .catch(() => null);
  const jobs: SystemJobDto[] = jobRunRecords().map(({ failingSince: _, ...job }) => job);
  const queues: SystemQueueDto[] = (
    [
      ['images', deps.work.cpu],
      ['sign-ins', deps.work.signIns],
    ] as const
  )
    .map(([name, q]) => ({ name, ...q.stats(), ...q.limits() }))
    .map(({ keys: _, ...q }) => q);
  let schedule: ReturnType<typeof readBackupSchedule> = null;
  try {
    schedule = readBackupSchedule();
  } catch {
    schedule = null;
  }
  const mode = backupMode(deps, schedule);
  const store = deps.files;
  const dto: Omit<SystemDto, 'warnings'> = {
    version: APP_VERSION,
    nodeVersion: process.version,
    engine: isPostgres(deps.db) ? 'postgresql' : 'sqlite',
    nodeName: deps.config.nodeName,
    nodes: await connectedNodes(deps),
    startedAt: startedAt.toISOString(),
    uptimeSeconds: Math.floor(process.uptime()),
    databaseBytes: await databaseBytes(deps),
    disk,
    files: { description: store.description, shared: store.shared },
    backup: {
      mode,
      intervalHours: mode === 'scheduled' ? (schedule?.intervalHours ?? null) : null,
      keep: mode === 'scheduled' ? (schedule?.keep ?? null) : null,
      folder: folder.backupsDir,
      last: await newestBackup(folder),
      lastRun: jobs.find((j) => j.name === BACKUP_JOB) ?? null,
    },
    jobs,
    queues,
    mail: { configured: deps.mail.configured, ...(await outboxStatus(deps.db, deps.clock())) },
  };
  return { ...dto, warnings: warningsFor(dto, deps.clock()) };
}
