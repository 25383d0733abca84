import type { Config } from './config';
import type { Db } from './db/database';
import type { MailService } from './features/mail/mail-service';
import type { PushNotifier } from './features/notifications/push';
import type { SetupGate } from './features/setup/setup-gate';
import type { LoginThrottle } from './features/users/throttle';
import type { WebAssets } from './http/web-assets';
import type { ExpensiveWork } from './work/expensive-work';

/** What createApp needs; tests and the desktop shell build their own. */
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
}
