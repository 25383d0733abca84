import { mkdirSync } from 'node:fs';
import { createApp } from '../app';
import { openApp } from '../bootstrap';
import type { Config } from '../config';
import { serveApp } from '../http/node-server';
import { readBackupSchedule, type ScheduleHandle, startBackupSchedule } from '../storage/backup-schedule';
import { DataFolder } from '../storage/data-folder';
import { acquireLock } from '../storage/lock';
import { embeddedWebAssets } from './embedded';
import { runSelf } from './self';

/**
 * Serves the app and the API until SIGINT/SIGTERM; prints one `listening on` line when ready.
 * Holds the data folder's lock (DataFolder.lockFile with this pid) while it runs, so restore
 * refuses to replace the folder under it, and runs the scheduled backups when configured.
 */
export async function runServe(config: Config): Promise<void> {
  const folder = new DataFolder(config.dataDir);
  const schedule = readBackupSchedule();
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
  let backups: ScheduleHandle | null = null;
  const server = serveApp(app.fetch, { port: config.port, hostname: config.host }, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    console.log(`listening on http://${host}:${info.port}`);
    if (schedule) {
      backups = startBackupSchedule(folder, schedule, async (file) => {
        await runSelf(['backup', file, '--data', folder.root]);
      });
      console.log(
        `backing up every ${schedule.intervalHours} h into ${folder.backupsDir}, keeping ${schedule.keep}`,
      );
    }
  });
  const stop = () => {
    backups?.stop();
    server.close(async () => {
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
