import type { Config } from './config';
import { type OpenedDatabase, openConfiguredDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import type { AppDeps } from './deps';
import { mailServiceFor } from './features/mail/mail-service';
import { oneSignalNotifier, type PushNotifier } from './features/notifications/push';
import { SetupGate } from './features/setup/setup-gate';
import { removeOrphanedProofs } from './features/submissions/orphaned-proofs';
import { TaskListCache } from './features/tasks/task-list-cache';
import { taskReads } from './features/tasks/tasks.service';
import { ActivityWriter } from './features/users/activity';
import { ensureBootstrapAdmin } from './features/users/admin-account';
import { databaseLimiters } from './features/users/database-limiter';
import { signedInReads } from './features/users/sessions.repository';
import { LoginThrottle, memoryLimiters, type ThrottleLimits } from './features/users/throttle';
import { loadWebAssets, type WebAssets } from './http/web-assets';
import { log } from './observability/logger';
import { DataFolder } from './storage/data-folder';
import { openFileStore } from './storage/file-store';
import { removeOrphanedImages } from './storage/orphaned-images';
import { expensiveWork } from './work/expensive-work';

export interface Opened {
  deps: AppDeps;
  database: OpenedDatabase;
  folder: DataFolder;
  close(): Promise<void>;
}

/**
 * Many app nodes must sign and check tokens and signed file URLs with one key: a
 * secret.key generated into each node's own folder would make every node refuse the others'
 * tokens. So with DATABASE_URL the secret comes from TOKEN_SECRET or the start is refused.
 */
export function requireSharedSecret(config: Config): void {
  // a scheduled job holds its lock on one connection while it works through another: with one
  // connection in the pool the job, and every request behind it, would wait forever
  if (config.databaseUrl && config.databasePoolSize < 2) {
    throw new Error(
      'DATABASE_POOL_SIZE must be at least 2: a scheduled job keeps one connection for its lock while it works',
    );
  }
  if (!config.cluster || config.tokenSecret) return;
  throw new Error(
    'TOKEN_SECRET is required when DATABASE_URL is set: every app node signs and checks sign-in tokens ' +
      'and file links with it, so give all nodes the same secret of at least 32 bytes ' +
      '(for example the output of `openssl rand -base64 48`)',
  );
}

/** config -> data folder -> database -> migrations -> first admin: everything createApp needs. */
export async function openApp(
  config: Config,
  options: {
    web?: WebAssets;
    throttle?: ThrottleLimits;
    clock?: () => Date;
    push?: PushNotifier;
    /** Limits of the expensive-work queues (tests make them small). */
    work?: Parameters<typeof expensiveWork>[0];
    /**
     * Clear the left-overs of a crash: empty the temp folder and remove proof files no
     * submission names and images no user or setting names (a kill between a file's durable
     * write and its row's commit). Only for the server holding the folder's lock, before it
     * serves: no upload is under way. In cluster mode only the temp folder (the files are
     * shared; cli/sweeps.ts startOrphanCleanup).
     */
    clearTemp?: boolean;
    /** The serving process: fail fast on another process's write lock (db/database.ts OpenOptions). */
    server?: boolean;
  } = {},
): Promise<Opened> {
  requireSharedSecret(config);
  const folder = new DataFolder(config.dataDir);
  folder.prepare({ clearTemp: options.clearTemp });
  const database = openConfiguredDatabase(
    {
      databaseUrl: config.databaseUrl,
      file: folder.dbFile,
      poolSize: config.databasePoolSize,
      // pg_stat_activity then names each node (the System screen lists the nodes connected)
      applicationName: `taskreward:${config.nodeName}`,
    },
    { server: options.server },
  );
  await migrateToLatest(database.db);
  const files = openFileStore(config);
  // nodes sharing a database cannot know that no upload is under way on another node:
  // they remove orphans every hour past a grace period instead, one node at a time (cli/sweeps.ts)
  if (options.clearTemp && !config.cluster) {
    const removed = await removeOrphanedProofs(database.db, files, new Date(), -1);
    if (removed > 0) log().info(`removed ${removed} proof file(s) left without a submission by a crash`);
    const images = await removeOrphanedImages(database.db, files);
    if (images > 0) log().info(`removed ${images} image(s) left without a user or setting by a crash`);
  }
  const secret = folder.secret(config.tokenSecret);
  // HS256 needs a key at least as long as its hash (RFC 7518); an empty one fails every sign-in
  if (secret.byteLength < 32) {
    await database.db.destroy();
    throw new Error(`The token secret (TOKEN_SECRET or ${folder.secretFile}) must be at least 32 bytes`);
  }
  const deps: AppDeps = {
    db: database.db,
    config,
    secret,
    web: options.web ?? loadWebAssets(config.webDir),
    // one node counts in its memory; nodes sharing the database count there
    throttle: new LoginThrottle(
      options.throttle,
      config.cluster ? databaseLimiters(database.db) : memoryLimiters,
    ),
    clock: options.clock ?? (() => new Date()),
    push: options.push ?? oneSignalNotifier(config.oneSignal),
    work: expensiveWork(options.work),
    setup: new SetupGate(database.db, config.cluster, options.clock),
    mail: mailServiceFor(config),
    files,
    taskList: new TaskListCache(),
    signedIn: signedInReads(),
    taskReads: taskReads(),
    activity: new ActivityWriter(database.db),
  };
  await ensureBootstrapAdmin(deps);
  return {
    deps,
    database,
    folder,
    close: async () => {
      deps.mail.transport?.close();
      // the heartbeats still waiting are written before the database closes
      await deps.activity.close();
      await database.db.destroy();
    },
  };
}
