import nodemailer from 'nodemailer';
import type { Config } from '../../config';

/** One mail as the outbox hands it to the transport. */
export interface OutgoingMail {
  to: { name: string | null; address: string };
  subject: string;
  text: string;
  html: string;
  /** stable per outbox row: a mail sent again after a crash carries the same id */
  messageId: string;
}

/** What sends a mail: nodemailer over SMTP in the app, the same in tests against smtp-server. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * Names and subjects are one header line each: a CR or LF (or another control character) typed
 * into a name must never start a header of its own (Bcc:, a second To:). nodemailer encodes
 * what it is given; this also keeps the text readable.
 */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/**
 * nodemailer over the SMTP_URL, with timeouts so a server that stops answering fails the attempt
 * (retried later) instead of holding the outbox job forever; no file or URL attachments read.
 */
export function smtpTransport(mail: NonNullable<Config['mail']>): MailTransport {
  const transporter = nodemailer.createTransport(
    {
      url: mail.smtpUrl,
      connectionTimeout: 20_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
      disableFileAccess: true,
      disableUrlAccess: true,
    },
    { from: mail.from },
  );
  return {
    async send(m) {
      await transporter.sendMail({
        from: mail.from,
        to: { name: oneLine(m.to.name ?? ''), address: m.to.address },
        subject: oneLine(m.subject),
        text: m.text,
        html: m.html,
        messageId: m.messageId,
      });
    },
    close: () => transporter.close(),
  };
}
