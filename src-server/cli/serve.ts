import { mkdirSync } from 'node:fs';
import { createApp } from '../app';
import { openApp } from '../bootstrap';
import type { Config } from '../config';
import { withJobLock } from '../db/locks';
import { openSetupIfNoAdmin, setupLinkLine } from '../features/setup/setup.service';
import { backfillProofDerivatives } from '../features/submissions/proof-backfill';
import { serveApp } from '../http/node-server';
import { readBackupSchedule, type ScheduleHandle, startBackupSchedule } from '../storage/backup-schedule';
import { DataFolder } from '../storage/data-folder';
import { fileStoreFor } from '../storage/file-store';
import { acquireLock } from '../storage/lock';
import { embeddedWebAssets } from './embedded';
import { runSelf } from './self';
import { startOrphanCleanup, startSweeps } from './sweeps';

/**
 * Serves the app and the API until SIGINT/SIGTERM; prints one `listening on` line when ready.
 * Holds the data folder's lock (DataFolder.lockFile with this pid) while it runs, so restore
 * refuses to replace the folder under it, and runs the scheduled backups when configured.
 */
export async function runServe(config: Config): Promise<void> {
  const folder = new DataFolder(config.dataDir);
  // the scheduled backup copies the SQLite file: nodes sharing PostgreSQL (issue 18) are backed
  // up by the database's own tools (pg_dump, point-in-time recovery)
  const schedule = config.cluster ? null : readBackupSchedule();
  if (config.cluster && readBackupSchedule()) {
    console.log(
      'BACKUP_INTERVAL_HOURS is ignored when DATABASE_URL is set: back up the database with its own tools',
    );
  }
  // the lock comes before anything touches the folder (openApp clears its temp area); a
  // restarting dev server may still be letting go of it
  mkdirSync(folder.root, { recursive: true });
  const lock = await acquireLock(folder, 5_000);
  process.once('exit', () => lock.release());
  let opened: Awaited<ReturnType<typeof openApp>>;
  try {
    const web = embeddedWebAssets();
    // holding the lock, this is the only process using tmp/: what is there is left from a crash
    opened = await openApp(config, { clearTemp: true, server: true, ...(web ? { web } : {}) });
  } catch (err) {
    lock.release();
    throw err;
  }
  const app = createApp(opened.deps);
  // first run (issue 19): no admin yet, so a one-time link to create one goes to the log
  const setupToken = await openSetupIfNoAdmin(opened.deps);
  let backups: ScheduleHandle | null = null;
  // started tasks past their time limit, proofs past the auto-approval days (issue 15); each pass
  // on one node at a time when nodes share the database (issue 18)
  const sweep = startSweeps(opened.deps, (line) => console.log(line));
  // files no row names: one server removes them at its start (openApp), nodes sharing the files
  // every hour, past a grace period
  const orphans = config.cluster ? startOrphanCleanup(opened.deps, (line) => console.log(line)) : null;
  const server = serveApp(app.fetch, { port: config.port, hostname: config.host }, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    // before the `listening on` line, so whoever waits for that one has seen the link too
    if (setupToken) console.log(setupLinkLine(`http://${host}:${info.port}`, setupToken, config.cluster));
    console.log(`listening on http://${host}:${info.port}`);
    // proofs from before thumbnails get theirs in the background (features/submissions/proof-backfill.ts)
    // one node at a time when nodes share the database: the others skip it (issue 18)
    void withJobLock(opened.deps.db, 'job:proof-backfill', () =>
      backfillProofDerivatives(opened.deps, () => stopping),
    )
      .then((n) => {
        if (n === null) console.log('proof thumbnails: another node is making them');
        else if (n > 0) console.log(`made thumbnails and fingerprints of ${n} earlier proof(s)`);
      })
      .catch((err) => {
        if (!stopping) console.error('proof thumbnails: stopped by an error', err);
      });
    if (schedule && fileStoreFor(config).shared) {
      // `backup` refuses a data folder whose files are elsewhere (storage/backup.ts)
      console.log(
        `not backing up on a schedule: the files are in ${fileStoreFor(config).description}, which ` +
          '`backup` does not copy; back it up on its own (see "Files on object storage" in README.md)',
      );
    } else if (schedule) {
      backups = startBackupSchedule(folder, schedule, async (file) => {
        await runSelf(['backup', file, '--data', folder.root]);
      });
      console.log(
        `backing up every ${schedule.intervalHours} h into ${folder.backupsDir}, keeping ${schedule.keep}`,
      );
    }
  });
  let stopping = false;
  const stop = () => {
    stopping = true;
    // whatever is still open after 5 s (a request that never ends) does not hold the stop; the
    // exit handler above removes the lock
    setTimeout(() => process.exit(1), 5_000).unref();
    backups?.stop();
    server.close(async () => {
      await sweep.stop();
      await orphans?.stop();
      await opened.close();
      lock.release();
      process.exit(0);
    });
    // idle keep-alive connections must not hold the shutdown
    if ('closeAllConnections' in server) server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
