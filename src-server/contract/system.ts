/** GET /api/admin/system: how the server is doing, for the admins' System screen. */

/** One background job's last run on the node that answered. */
export interface SystemJobDto {
  name: string;
  lastRunAt: string;
  lastOk: boolean;
  lastSuccessAt: string | null;
  lastError: string | null;
  counts: Record<string, number>;
  durationMs: number | null;
  runs: number;
  failures: number;
}

export interface SystemQueueDto {
  name: 'images' | 'sign-ins';
  running: number;
  waiting: number;
  concurrency: number;
  maxWaiting: number;
}

/** What an operator should look at, by code; the screen words each in the reader's language. */
export type SystemWarningDto =
  | { code: 'disk_low'; freePercent: number }
  | { code: 'backup_none' }
  | { code: 'backup_old'; days: number }
  | { code: 'backup_failing'; error: string }
  | { code: 'job_failing'; job: string; error: string }
  | { code: 'queue_full'; queue: string }
  | { code: 'mail_stuck'; minutes: number }
  | { code: 'mail_failed'; count: number };

/** The mail outbox: whether SMTP is set up, what waits and what was given up in the last week. */
export interface SystemMailDto {
  configured: boolean;
  pending: number;
  failedLastWeek: number;
  oldestPendingAt: string | null;
}

export interface SystemDto {
  version: string;
  nodeVersion: string;
  engine: 'sqlite' | 'postgresql';
  /** The node that answered (NODE_NAME or the host name). */
  nodeName: string;
  /** PostgreSQL: the app nodes connected to the database now; SQLite: this one. */
  nodes: string[];
  startedAt: string;
  uptimeSeconds: number;
  /** The database's size on disk (SQLite: the file and its WAL), null when it cannot be read. */
  databaseBytes: number | null;
  /** The data folder's disk. */
  disk: { path: string; freeBytes: number; totalBytes: number } | null;
  files: { description: string; shared: boolean };
  backup: {
    /** Why there is no schedule here: none set, PostgreSQL (its own tools), files elsewhere. */
    mode: 'scheduled' | 'off' | 'database_tools' | 'files_elsewhere';
    intervalHours: number | null;
    keep: number | null;
    folder: string;
    last: { name: string; at: string; bytes: number } | null;
    lastRun: SystemJobDto | null;
  };
  jobs: SystemJobDto[];
  queues: SystemQueueDto[];
  mail: SystemMailDto;
  warnings: SystemWarningDto[];
}

/** Below this share of free space on the data folder's disk, the screen warns. */
export const DISK_LOW_PERCENT = 10;
/** A backup older than this many days (or none) is warned about where backups are scheduled. */
export const BACKUP_STALE_DAYS = 2;
/** A mail still waiting after this many minutes means the sending has stalled (SMTP down or refusing). */
export const MAIL_STUCK_MINUTES = 30;
