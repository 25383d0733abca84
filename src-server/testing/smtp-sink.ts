import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail as it arrived: parsed, with the envelope the client gave. */
export interface ReceivedMail {
  parsed: ParsedMail;
  /** RCPT TO of the SMTP session: where the server would deliver it */
  recipients: string[];
  raw: string;
}

/**
 * A real SMTP server (smtp-server) on a free local port that keeps every mail it accepts,
 * parsed by mailparser. `mode` makes it refuse mails (a temporary 451) or hold them without an
 * answer (a server that hangs), to test the outbox's retries.
 */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  mode: 'accept' | 'refuse' | 'hold' = 'accept';
  /** How long an accepted mail waits for its answer: a slow server, to kill a sender mid-send. */
  delayMs = 0;
  /** While paused, mails are kept but not answered (see pause/resume). */
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;
  private readonly server: SMTPServer;
  private waiters: (() => void)[] = [];
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (this.mode === 'refuse') {
            const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
            callback(err);
            return;
          }
          if (this.mode === 'hold') return; // never answered: the client times out or dies
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw).then(
            async (parsed) => {
              // kept as soon as it arrived, as a real server queues it before it answers: a sender
              // killed while waiting for the answer has delivered it all the same
              this.mails.push({ parsed, raw, recipients: session.envelope.rcptTo.map((r) => r.address) });
              for (const w of this.waiters.splice(0)) w();
              await this.gate;
              await new Promise<void>((resolve) => setTimeout(resolve, this.delayMs));
              callback();
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** SMTP_URL for the app. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The mails to an address. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((m) => m.recipients.includes(address));
  }

  /** Resolves once `count` mails in all have arrived (or rejects after `ms`). */
  async waitFor(count: number, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.mails.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} mail(s), got ${this.mails.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Holds the answers of mails from now on (they are kept already) until `resume`. */
  pause(): void {
    this.gate ??= new Promise<void>((resolve) => {
      this.openGate = resolve;
    });
  }

  resume(): void {
    this.openGate?.();
    this.gate = null;
    this.openGate = null;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first link to this app's page `path` in a mail's text part, with its token. */
export function linkIn(mail: ReceivedMail, path: string): { url: URL; token: string } {
  const match = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_-]+`).exec(mail.parsed.text ?? '');
  if (!match) throw new Error(`no ${path} link in the mail: ${mail.parsed.text}`);
  const url = new URL(match[0]);
  return { url, token: url.searchParams.get('token') ?? '' };
}
