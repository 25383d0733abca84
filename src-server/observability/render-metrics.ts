import { isPostgres } from '../db/dialect';
import type { AppDeps } from '../deps';
import { APP_VERSION } from '../storage/backup';
import { buildInfo, imageQueueCapacity, imageQueueDepth, registry, siteGauges } from './metrics';
import { readSiteNumbers, type SiteNumbers } from './site-numbers';

/** Scrapes closer together than this reuse the last database numbers (several Prometheus servers, a refresh storm). */
export const SITE_NUMBERS_TTL_MS = 10_000;

let cached: { at: number; numbers: SiteNumbers } | null = null;

function ageSeconds(iso: string | null, now: Date): number {
  if (!iso) return 0;
  return Math.max(0, (now.getTime() - Date.parse(iso)) / 1000);
}

/** The metrics in Prometheus' text format, with the gauges read now. */
export async function renderMetrics(deps: Pick<AppDeps, 'db' | 'work' | 'clock'>): Promise<string> {
  const now = deps.clock();
  buildInfo.reset();
  buildInfo.set(
    {
      version: APP_VERSION,
      node_version: process.version,
      engine: isPostgres(deps.db) ? 'postgresql' : 'sqlite',
    },
    1,
  );
  for (const [queue, work] of [
    ['images', deps.work.cpu],
    ['sign-ins', deps.work.signIns],
  ] as const) {
    const stats = work.stats();
    imageQueueDepth.set({ queue, state: 'running' }, stats.running);
    imageQueueDepth.set({ queue, state: 'waiting' }, stats.waiting);
    const limits = work.limits();
    imageQueueCapacity.set({ queue, kind: 'concurrency' }, limits.concurrency);
    imageQueueCapacity.set({ queue, kind: 'max_waiting' }, limits.maxWaiting);
  }
  if (!cached || Date.now() - cached.at > SITE_NUMBERS_TTL_MS) {
    cached = { at: Date.now(), numbers: await readSiteNumbers(deps.db) };
  }
  const n = cached.numbers;
  siteGauges.pendingSubmissions.set(n.pendingSubmissions);
  siteGauges.oldestPendingSubmission.set(ageSeconds(n.oldestPendingSubmissionAt, now));
  siteGauges.pendingWithdrawals.set(n.pendingWithdrawals);
  siteGauges.pendingWithdrawalsTl.set(n.pendingWithdrawalsKurus / 100);
  siteGauges.oldestPendingWithdrawal.set(ageSeconds(n.oldestPendingWithdrawalAt, now));
  siteGauges.openFraudFlags.set(n.openFraudFlags);
  siteGauges.users.set(n.users);
  siteGauges.pendingMails.set(n.pendingMails);
  siteGauges.oldestPendingMail.set(ageSeconds(n.oldestPendingMailAt, now));
  return registry.metrics();
}

/** Forgets the cached numbers (tests). */
export function forgetSiteNumbers(): void {
  cached = null;
}
