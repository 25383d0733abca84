import { readConfig } from '../config';

/** Option values as parseArgs gives them. */
export type OptionValues = Record<string, string | boolean | undefined>;

/** One CLI command: its help text, its options, and what it does (resolving to an exit code). */
export interface Command {
  summary: string;
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; short?: string }>;
  /** Lines printed under the usage by `--help`. */
  details?: string;
  run(values: OptionValues, positionals: string[]): Promise<number | undefined>;
}

/** The config, with `--data DIR` over DATA_DIR. */
export function configWith(v: OptionValues) {
  return readConfig({ ...process.env, ...(typeof v.data === 'string' ? { DATA_DIR: v.data } : {}) });
}

/**
 * What `backup` and `restore` say when the database is PostgreSQL: they copy the SQLite
 * file and the data folder, which hold nothing then; the operator's tools do it instead.
 */
export function postgresBackupRefusal(command: 'backup' | 'restore'): string {
  const what =
    command === 'backup'
      ? 'back the database up with pg_dump (pg_dump -Fc "$DATABASE_URL" -f taskreward.dump) or your\n' +
        "provider's point-in-time recovery"
      : 'restore the database with pg_restore (pg_restore --clean --if-exists -d "$DATABASE_URL"\n' +
        "taskreward.dump) or your provider's point-in-time recovery";
  return (
    `${command}: the database is PostgreSQL (DATABASE_URL is set), which this command does not copy.\n` +
    `Instead, ${what}; keep the files (an S3 bucket with versioning, or the shared folder)\n` +
    'and TOKEN_SECRET with it. See the README, "Scaling out".'
  );
}
