import { type Command, configWith } from './command';
import { doctorInChild, MoveRefused, moveToPostgres } from './move/move';
import { restartWithNodeFlags } from './move/node-flags';
import { memory, progressFor } from './move/progress';

/** `move-to-postgres`: the SQLite data folder into DATABASE_URL, and its files into the nodes' store. */
export const moveToPostgresCommand: Command = {
  summary: 'move a SQLite data folder to PostgreSQL (DATABASE_URL) and its files to the nodes’ store',
  usage: 'move-to-postgres --data DIR',
  details:
    'With DATABASE_URL (an empty database; the move migrates it) and, to move the files too, the\n' +
    'S3_* settings or FILES_DIR the app nodes will use. Refuses, writing nothing, while a server\n' +
    "runs on DIR, when the target holds the app's rows or another schema, or when doctor finds a\n" +
    'problem in DIR. Copies every table in one transaction from one snapshot of the file, checks\n' +
    'row counts, ledger against balances, digests of the ledger and the audit log, the files and\n' +
    'doctor on the target before committing, and prints what it compared. DIR is only read.',
  options: { data: { type: 'string' } },
  async run(v) {
    if (typeof v.data !== 'string') {
      console.error('move-to-postgres needs --data DIR (the SQLite data folder to move)');
      return 2;
    }
    restartWithNodeFlags();
    const config = configWith(v);
    const progress = progressFor();
    try {
      const report = await moveToPostgres(config, progress, { sourceDoctor: doctorInChild });
      progress.stop();
      const rows = report.tables.reduce((n, t) => n + t.rows, 0);
      const files = report.files.copied
        ? `${report.files.checked} files in ${report.files.store} (${report.files.written} written)`
        : `the files stay in ${report.files.store}`;
      console.log(
        `moved ${config.dataDir} to PostgreSQL: ${report.tables.length} tables, ${rows} rows; ${files}; ` +
          `in ${report.seconds.toFixed(1)} s, ${memory()}. The folder is unchanged: keep it as the backup of this moment.`,
      );
      return 0;
    } catch (err) {
      progress.stop();
      if (err instanceof MoveRefused) {
        console.error(`move-to-postgres refused: ${err.message}\nNothing was written.`);
        return 1;
      }
      console.error(
        `move-to-postgres failed: ${(err as Error).message}\n` +
          'The database was rolled back (the target holds no rows of the folder); the folder is unchanged. ' +
          'Files already copied to the store are written again by the next run.',
      );
      return 1;
    }
  },
};
