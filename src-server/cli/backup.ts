import { join } from 'node:path';
import { createBackup, FilesElsewhereError } from '../storage/backup';
import { scheduledBackupName } from '../storage/backup-schedule';
import { DataFolder, DB_FILE_NAME } from '../storage/data-folder';
import { openFileStore } from '../storage/file-store';
import { type Command, configWith, postgresBackupRefusal } from './command';
import { onStopSignals } from './stop-signals';

/** `backup [file]`: an online backup of the data folder, safe while the server runs. */
export const backupCommand: Command = {
  summary: 'write a backup archive of the data folder (safe while the server runs)',
  usage: 'backup [FILE] [--data DIR]',
  details:
    'FILE is a tar archive (gzipped when it ends in .gz or .tgz); without one it goes into\n' +
    "the data folder's backups/ folder. It holds the database (SQLite online backup), the\n" +
    'token secret, every stored file the database names and a manifest with checksums.',
  options: { data: { type: 'string' } },
  async run(v, positionals) {
    if (positionals.length > 1) {
      console.error(`backup takes one file, not ${positionals.length}\nusage: taskreward ${this.usage}`);
      return 2;
    }
    const config = configWith(v);
    if (config.databaseUrl) {
      console.error(postgresBackupRefusal('backup'));
      return 2;
    }
    const folder = new DataFolder(config.dataDir);
    const file = positionals[0] ?? join(folder.backupsDir, scheduledBackupName(new Date()));
    let result: Awaited<ReturnType<typeof createBackup>>;
    // Ctrl-C, or the server stopping while its scheduled backup runs (its process group gets the
    // signal, and the server asks again): the backup is given up at its next step, its partial
    // files removed, instead of dying with them left
    const given = new AbortController();
    const signals = onStopSignals(
      (signal) => given.abort(signal),
      (line) => console.error(line),
    );
    try {
      result = await createBackup(folder, file, openFileStore(config), { signal: given.signal });
    } catch (err) {
      if (signals.received) {
        console.error(`backup stopped by ${signals.received}: nothing was written`);
        return signals.received === 'SIGINT' ? 130 : 143;
      }
      if (!(err instanceof FilesElsewhereError)) throw err;
      console.error(`refused: ${err.message}. Nothing was written.`);
      return 2;
    } finally {
      signals.dispose();
    }
    const { manifest, snapshotMs, file: written } = result;
    const db = manifest.entries.find((e) => e.path === DB_FILE_NAME);
    console.log(
      `backup written to ${written}: database ${db?.bytes ?? 0} bytes (snapshot ${Math.round(snapshotMs)} ms), ` +
        `${manifest.counts.proofs} proof(s), ${manifest.counts.images} image(s), migration ${manifest.lastMigration}`,
    );
    for (const path of manifest.missing) {
      console.error(`warning: ${path} is named in the database but was not in the data folder`);
    }
    return 0;
  },
};
