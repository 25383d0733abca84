import type { Config } from '../../config';
import { type MailTransport, smtpTransport } from './mail-transport';

/**
 * The app's mail: whether it can send (SMTP_URL), the transport the outbox job sends through,
 * and a wake-up a request gives the job after queueing a mail so it goes out in a moment rather
 * than at the job's next tick.
 */
export class MailService {
  private waker: (() => void) | null = null;

  constructor(
    readonly transport: MailTransport | null,
    /** the sender's domain, for the Message-ID of each mail */
    readonly domain: string,
  ) {}

  get configured(): boolean {
    return this.transport !== null;
  }

  /** Asks the outbox job (on this node, when it runs here) to look for due mail now. */
  wake(): void {
    this.waker?.();
  }

  /** The job's own wake-up (outbox.job.ts). */
  onWake(fn: (() => void) | null): void {
    this.waker = fn;
  }
}

/** The sender's domain in MAIL_FROM (`"Site" <no-reply@example.com>` gives example.com). */
export function senderDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'localhost';
}

/** The mail of a configuration: SMTP through nodemailer when SMTP_URL is set, else none. */
export function mailServiceFor(config: Pick<Config, 'mail'>): MailService {
  if (!config.mail) return new MailService(null, 'localhost');
  return new MailService(smtpTransport(config.mail), senderDomain(config.mail.from));
}
