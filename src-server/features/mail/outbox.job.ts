import { withJobLock } from '../../db/locks';
import type { AppDeps } from '../../deps';
import { claimDueMail, markAttemptFailed, markSent, releaseLeases } from './outbox.repository';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'mail' | 'config'>;
type Log = (line: string) => void;

/** How long a node may take to send one claimed mail before another may take it over. */
export const MAIL_LEASE_MS = 2 * 60_000;
/** Attempts before a mail is given up (failed): with the backoff below, about eight hours. */
export const MAIL_MAX_ATTEMPTS = 10;
/** How often the job looks for due mail when nothing wakes it. */
export const MAIL_POLL_MS = 15_000;
/** Mails claimed at once; a run goes on claiming until none is due. */
const BATCH = 20;

/** The wait after the `attempt`-th failure: 30 s doubling, at most two hours. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 2 * 60 * 60_000);
}

/** What one run of a background job did, for whoever watches the jobs (logs, metrics, status). */
export interface JobRunOutcome {
  name: string;
  ok: boolean;
  startedAt: string;
  finishedAt: string;
  counts: Record<string, number>;
  /** why the run failed (ok false) */
  error?: string;
}

const listeners = new Set<(outcome: JobRunOutcome) => void>();

/**
 * Calls `listener` with the outcome of every run of the mail outbox job in this process (counts:
 * sent, retried, failed). Returns the function that removes it. A listener's error is ignored.
 */
export function onMailJobRun(listener: (outcome: JobRunOutcome) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function report(outcome: JobRunOutcome): JobRunOutcome {
  for (const listener of listeners) {
    try {
      listener(outcome);
    } catch {
      // a watcher's failure is not the job's
    }
  }
  return outcome;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code =
      (err as { responseCode?: number; code?: string }).responseCode ?? (err as { code?: string }).code;
    return code ? `${code} ${err.message}` : err.message;
  }
  return String(err);
}

/**
 * Sends every mail that is due, batch by batch, until none is left or `stopping()` says so.
 * Each mail is leased before it is sent, marked sent after the server took it, or put back with
 * a later time (or given up after MAIL_MAX_ATTEMPTS). A mail the server took whose "sent" was
 * never written (the process killed in between) goes again after its lease: mail is sent at least
 * once, with the same Message-ID, and the window for a second copy is one SMTP reply wide.
 */
export async function sendDueMail(deps: Deps, stopping: () => boolean = () => false): Promise<JobRunOutcome> {
  const startedAt = deps.clock().toISOString();
  const counts = { sent: 0, retried: 0, failed: 0 };
  const transport = deps.mail.transport;
  if (!transport) return report({ name: 'mail-outbox', ok: true, startedAt, finishedAt: startedAt, counts });
  try {
    while (!stopping()) {
      const now = deps.clock();
      const batch = await claimDueMail(
        deps.db,
        now.toISOString(),
        new Date(now.getTime() + MAIL_LEASE_MS).toISOString(),
        BATCH,
      );
      if (batch.length === 0) break;
      for (const row of batch) {
        const messageId = `<${row._id}@${deps.mail.domain}>`;
        try {
          await transport.send({
            to: { name: row.to_name, address: row.to_address },
            subject: row.subject,
            text: row.text_body,
            html: row.html_body,
            messageId,
          });
        } catch (err) {
          const attempts = Number(row.attempts);
          const giveUp = attempts >= MAIL_MAX_ATTEMPTS;
          const at = new Date(deps.clock().getTime() + retryDelayMs(attempts)).toISOString();
          await markAttemptFailed(deps.db, row._id, describe(err), giveUp ? 'give-up' : { at });
          if (giveUp) counts.failed++;
          else counts.retried++;
          continue;
        }
        await markSent(deps.db, row._id, deps.clock().toISOString(), messageId);
        counts.sent++;
      }
    }
  } catch (err) {
    return report({
      name: 'mail-outbox',
      ok: false,
      startedAt,
      finishedAt: deps.clock().toISOString(),
      counts,
      error: describe(err),
    });
  }
  return report({ name: 'mail-outbox', ok: true, startedAt, finishedAt: deps.clock().toISOString(), counts });
}

/**
 * The outbox job of a serving process: a run now, every MAIL_POLL_MS, and soon after a request
 * queued a mail (MailService.wake). Runs under the job lock, so on nodes sharing PostgreSQL one
 * node sends at a time (the claim's SKIP LOCKED keeps two from taking one mail even so). A single
 * server first voids the leases its previous process left. Null without SMTP_URL.
 */
export function startMailOutbox(deps: Deps, log: Log): { stop(): Promise<void> } | null {
  if (!deps.mail.configured) return null;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let first = !deps.config.cluster;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      if (first) {
        first = false;
        const released = await releaseLeases(deps.db).catch(() => 0);
        if (released > 0) log(`mail: ${released} mail(s) left being sent by the last run go out again`);
      }
      const outcome = await withJobLock(deps.db, 'job:mail-outbox', () => sendDueMail(deps, () => stopped));
      if (outcome && !outcome.ok) log(`mail: sending stopped by an error, retrying later: ${outcome.error}`);
      else if (outcome && outcome.counts.retried + outcome.counts.failed > 0)
        log(
          `mail: ${outcome.counts.sent} sent, ${outcome.counts.retried} to retry, ${outcome.counts.failed} given up`,
        );
    })()
      .catch((err) => log(`mail: the outbox run failed: ${describe(err)}`))
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          setTimeout(tick, 0).unref();
        }
      });
  };
  deps.mail.onWake(() => setTimeout(tick, 50).unref());
  const timer = setInterval(tick, MAIL_POLL_MS);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      deps.mail.onWake(null);
      await running;
      deps.mail.transport?.close();
    },
  };
}
