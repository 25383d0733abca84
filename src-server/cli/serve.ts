import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { createApp } from '../app';
import { type Opened, openApp } from '../bootstrap';
import type { Config } from '../config';
import { withJobLock } from '../db/locks';
import { onMailJobRun, startMailOutbox } from '../features/mail/outbox.job';
import { openSetupIfNoAdmin, setupLinkLine } from '../features/setup/setup.service';
import { backfillProofDerivatives } from '../features/submissions/proof-backfill';
import { serveApp } from '../http/node-server';
import { recordJobRun, timedJobRun } from '../observability/jobs';
import { createLogger, log, logOptionsFrom, setLogger } from '../observability/logger';
import { memoryReductions, memoryReturned } from '../observability/metrics';
import { startMetricsPort } from '../observability/metrics-port';
import { markStopping } from '../observability/readiness';
import { readBackupSchedule, type ScheduleHandle, startBackupSchedule } from '../storage/backup-schedule';
import { DataFolder } from '../storage/data-folder';
import { acquireLock } from '../storage/lock';
import { embeddedWebAssets } from './embedded';
import { startMemoryReducer } from './memory-reducer';
import { runSelf } from './self';
import { onStopSignals } from './stop-signals';
import { startOrphanCleanup, startSessionCleanup, startSweeps } from './sweeps';

/** A stop takes at most this long: whatever still runs then (a request that never ends) is cut. */
export const STOP_DEADLINE_MS = 5_000;

/**
 * Serves the app and the API until SIGINT/SIGTERM; prints one `listening on` line when ready.
 * Holds the data folder's lock (DataFolder.lockFile with this pid) while it runs, so restore
 * refuses to replace the folder under it, and runs the scheduled backups when configured.
 *
 * A stop signal, whenever it comes (during the start, while serving, while already stopping),
 * ends in the same stop: the server closed, the scheduled backup under way given up, the
 * database closed, the lock removed, within STOP_DEADLINE_MS. Later signals are absorbed.
 */
export async function runServe(config: Config): Promise<void> {
  // JSON lines on stdout (human-readable on a terminal), before anything has something to say
  setLogger(await createLogger(logOptionsFrom(process.env, config.nodeName)));
  const folder = new DataFolder(config.dataDir);
  // the scheduled backup copies the SQLite file: nodes sharing PostgreSQL are backed
  // up by the database's own tools (pg_dump, point-in-time recovery)
  const schedule = config.cluster ? null : readBackupSchedule();
  if (config.cluster && readBackupSchedule()) {
    log().warn(
      'BACKUP_INTERVAL_HOURS is ignored when DATABASE_URL is set: back up the database with its own tools',
    );
  }
  // what is running so far, for the stop to close whichever parts have started
  let opened: Opened | null = null;
  let server: Server | null = null;
  let metricsServer: Server | null = null;
  let sweep: { stop(): Promise<void> } | null = null;
  let orphans: { stop(): Promise<void> } | null = null;
  let sessionCleanup: { stop(): Promise<void> } | null = null;
  let outbox: { stop(): Promise<void> } | null = null;
  let backups: ScheduleHandle | null = null;
  let reducer: { stop(): void } | null = null;
  const backupRun = new AbortController();
  // set once the start is over: before that, a signal is acted on at the start's next step, so
  // the stop never closes the database under a migration still running
  let started = false;
  let finishing = false;
  // before the lock is taken, so no signal finds the lock held and the default action in place
  const signals = onStopSignals(
    (signal) => {
      // from here /readyz answers 503: a load balancer stops sending this node new requests
      markStopping();
      log().info({ signal }, `${signal}: stopping`);
      // whatever is still open after the deadline does not hold the stop; the exit handler below
      // removes the lock and closes SQLite. The drain, when asked for, comes on top.
      setTimeout(() => {
        log().error(`stopping took over ${STOP_DEADLINE_MS / 1000} s: exiting with what is still open`);
        process.exit(1);
      }, config.stopDrainMs + STOP_DEADLINE_MS).unref();
      if (started) void stop();
    },
    (line) => log().info(line),
  );
  const stopping = () => signals.received !== null;
  const stop = async (): Promise<void> => {
    if (finishing) return;
    finishing = true;
    const step = async (what: string, run: () => unknown) => {
      try {
        await run();
      } catch (err) {
        // the other steps still run: the lock and the database matter most
        log().error({ err }, `stopping: ${what} failed`);
      }
    };
    backups?.stop();
    reducer?.stop();
    // the archive under way is given up (the backup command removes its partial files)
    backupRun.abort();
    const closing = server;
    if (closing) {
      // still answering (/readyz with 503) while a load balancer notices, when STOP_DRAIN_SECONDS asks
      if (config.stopDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.stopDrainMs));
      await step('closing the server', async () => {
        const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
        // idle keep-alive connections must not hold the shutdown; requests under way finish
        // (up to the deadline), their connections closed once answered
        closing.closeIdleConnections();
        const idle = setInterval(() => closing.closeIdleConnections(), 100);
        await closed.finally(() => clearInterval(idle));
      });
    }
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    await step('the sweeps', () => sweep?.stop());
    await step('the orphan clean-up', () => orphans?.stop());
    await step('the session clean-up', () => sessionCleanup?.stop());
    await step('the mail outbox', () => outbox?.stop());
    // its SQLite connection gone before ours, so closing ours folds the WAL back in
    await step('the scheduled backup', () => backups?.idle());
    await step('closing the database', () => opened?.close());
    lock.release();
    process.exit(0);
  };

  // the lock comes before anything touches the folder (openApp clears its temp area); a
  // restarting dev server may still be letting go of it
  mkdirSync(folder.root, { recursive: true });
  const lock = await acquireLock(folder, 5_000);
  process.once('exit', () => {
    // reached before the stop closed the database only when the deadline cut it short: SQLite's
    // close is synchronous and folds the WAL back into the file
    const reader = opened?.database.reader;
    if (reader?.open) reader.close();
    const sqlite = opened?.database.sqlite;
    if (sqlite?.open) sqlite.close();
    lock.release();
  });
  if (stopping()) return stop();
  try {
    const web = embeddedWebAssets();
    // holding the lock, this is the only process using tmp/: what is there is left from a crash
    opened = await openApp(config, { clearTemp: true, server: true, ...(web ? { web } : {}) });
  } catch (err) {
    lock.release();
    throw err;
  }
  if (stopping()) return stop();
  const deps = opened.deps;
  const app = createApp(deps);
  // first run: no admin yet, so a one-time link to create one goes to the log
  const setupToken = await openSetupIfNoAdmin(deps);
  if (stopping()) return stop();
  // started tasks past their time limit, proofs past the auto-approval days; each pass
  // on one node at a time when nodes share the database
  sweep = startSweeps(deps, (line) => log().info(line));
  // files no row names: one server removes them at its start (openApp), nodes sharing the files
  // every hour, past a grace period
  orphans = config.cluster ? startOrphanCleanup(deps, (line) => log().info(line)) : null;
  // rows of sessions past their end, every hour (one node at a time when they share the database)
  sessionCleanup = startSessionCleanup(deps, (line) => log().info(line));
  // queued mail goes out in the background, one node at a time when nodes share the database
  outbox = startMailOutbox(deps, (line) => log().info(line));
  // each outbox run goes where every other job's run goes: the log, the metrics, the System screen
  if (config.mail)
    onMailJobRun((run) =>
      recordJobRun(
        run.name,
        { ok: run.ok, counts: run.counts, error: run.error },
        Date.parse(run.finishedAt) - Date.parse(run.startedAt),
      ),
    );
  if (config.mail && !config.publicUrl)
    log().warn(
      "PUBLIC_URL is not set: links in mails use the address each request came to; set it to the site's address",
    );
  // V8 keeps the heap's emptied pages for itself while the server is busy: hand them back when
  // the RSS is over the budget (V8's collection is looked up at the first one, not at the start)
  if (config.memoryBudgetBytes > 0)
    reducer = startMemoryReducer({
      budgetBytes: config.memoryBudgetBytes,
      onReduce: ({ before, after, ms }) => {
        memoryReductions.observe(ms / 1000);
        memoryReturned.inc(Math.max(0, before - after));
      },
    });
  // the scrape on a port of its own, only on this machine: no token to manage
  if (config.metricsPort) metricsServer = startMetricsPort(deps, config.metricsPort);
  server = serveApp(app.fetch, { port: config.port, hostname: config.host }, (info) => {
    if (stopping()) return;
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    // before the `listening on` line, so whoever waits for that one has seen the link too
    // the one-time link is the operator's way in on a first run: the log is where they look
    if (setupToken) log().info(setupLinkLine(`http://${host}:${info.port}`, setupToken, config.cluster));
    log().info(`listening on http://${host}:${info.port}`);
    // proofs from before thumbnails get theirs in the background (features/submissions/proof-backfill.ts)
    // one node at a time when nodes share the database: the others skip it
    void timedJobRun('proof-backfill', async () => {
      const n = await withJobLock(deps.db, 'job:proof-backfill', () =>
        backfillProofDerivatives(deps, stopping),
      );
      return n === null ? null : { proofs: n };
    })
      .then((done) => {
        if (done === null) log().info('proof thumbnails: another node is making them');
        else if (done.proofs > 0)
          log().info(`made thumbnails and fingerprints of ${done.proofs} earlier proof(s)`);
      })
      .catch((err) => {
        if (!stopping()) log().error({ err }, 'proof thumbnails: stopped by an error');
      });
    if (schedule && deps.files.shared) {
      // `backup` refuses a data folder whose files are elsewhere (storage/backup.ts)
      log().warn(
        `not backing up on a schedule: the files are in ${deps.files.description}, which ` +
          '`backup` does not copy; back it up on its own (see "Files on object storage" in README.md)',
      );
    } else if (schedule) {
      backups = startBackupSchedule(folder, schedule, async (file) => {
        await runSelf(['backup', file, '--data', folder.root], { signal: backupRun.signal });
      });
      log().info(
        `backing up every ${schedule.intervalHours} h into ${folder.backupsDir}, keeping ${schedule.keep}`,
      );
    }
  });
  // no await since the last check: a signal can only come after this
  started = true;
}
