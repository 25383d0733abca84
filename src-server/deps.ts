import type { Config } from './config';
import type { Db } from './db/database';
import type { MailService } from './features/mail/mail-service';
import type { PushNotifier } from './features/notifications/push';
import type { SetupGate } from './features/setup/setup-gate';
import type { TaskListCache } from './features/tasks/task-list-cache';
import type { TaskReads } from './features/tasks/tasks.service';
import type { ActivityWriter } from './features/users/activity';
import type { SignedInReads } from './features/users/sessions.repository';
import type { LoginThrottle } from './features/users/throttle';
import type { WebAssets } from './http/web-assets';
import type { FileStore } from './storage/file-store';
import type { ExpensiveWork } from './work/expensive-work';

/**
 * Everything a request needs, made once where the app is opened (bootstrap.ts openApp) and
 * handed to createApp: no request reaches a module-level store or cache of its own.
 */
export interface AppDeps {
  db: Db;
  config: Config;
  /** HS256 signing key for tokens (and signed file URLs). */
  secret: Uint8Array;
  web: WebAssets;
  throttle: LoginThrottle;
  clock: () => Date;
  /** Push notifications (OneSignal from the config unless a test gives another). */
  push: PushNotifier;
  /** The fair queues of password hashing and image decoding. */
  work: ExpensiveWork;
  /** The first-run setup link's one-time token (opened by `serve` while there is no admin). */
  setup: SetupGate;
  /** Mail through SMTP_URL (none without it): the outbox job sends what requests queue. */
  mail: MailService;
  /** Where uploaded proofs and images are kept (the data folder, a shared folder or a bucket). */
  files: FileStore;
  /**
   * The task list's ids and rows, held while they may be served (task-list-cache.ts). One per opened database: apps built over
   * the same opening share it, so a task write through any of them is seen by all at once.
   */
  taskList: TaskListCache;
  /**
   * Reads remembered under the change stamp (db/change-stamp.ts), made once per opened
   * database like the task list: the signed-in sessions, and the task list's and detail's reads
   * of a viewer. Never shared by two openings, even in one process.
   */
  signedIn: SignedInReads;
  taskReads: TaskReads;
  /** The signed-in users' heartbeats, written once a second (closed with the app: written then). */
  activity: ActivityWriter;
}
