import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { imageQueueWait } from '../observability/metrics';
import { FairQueue, type FairQueueOptions } from './fair-queue';

/**
 * The queues of the server's expensive work, each shared fairly between accounts (fair-queue.ts).
 * Together they run at most one job per core but one, so the event loop keeps a core to answer
 * everyone else; sign-ins have a queue of their own and never wait behind a profile save.
 */
export interface ExpensiveWork {
  /** the argon2 verify of a sign-in */
  signIns: FairQueue;
  /**
   * everything else: decoding and re-encoding uploaded images (proofs, profile photos, logo,
   * favicon) and the argon2 work of registrations, password changes and admin edits
   */
  cpu: FairQueue;
}

export interface WorkLimits {
  signIns: FairQueueOptions;
  cpu: FairQueueOptions;
}

/**
 * Jobs at once for each queue on a machine of `cores` cores: one core is the event loop's. The
 * image queue may borrow that core for one more job while the loop is mostly idle (uploads
 * arriving and little else: two images at once on 2 cores, as fast as the image library goes);
 * while the loop is busy answering, the borrowed lane stays shut and the loop keeps its core.
 */
export function workLimits(cores = availableParallelism(), lent: () => boolean = eventLoopIdle): WorkLimits {
  const heavy = Math.max(1, cores - 1);
  const signIns = Math.max(1, Math.floor(heavy / 3));
  return {
    signIns: { concurrency: signIns, perKey: 2, maxWaiting: 64 },
    cpu: {
      concurrency: Math.max(1, heavy - signIns),
      perKey: 2,
      maxWaiting: 64,
      borrowed: cores > 1 ? { lanes: 1, lent } : undefined,
    },
  };
}

/** The share of its time the event loop may be busy while it lends its core to an image. */
export const LOOP_LEND_BELOW = 0.5;
const LOOP_WINDOW_MS = 100;
let loopSample = performance.eventLoopUtilization();
let loopSampledAt = performance.now();
let loopBusy = 0;

/**
 * Whether the event loop was busy less than LOOP_LEND_BELOW of the time lately: its utilization
 * over the last window of at least LOOP_WINDOW_MS, measured when asked (no timer of its own).
 */
export function eventLoopIdle(): boolean {
  const now = performance.now();
  if (now - loopSampledAt >= LOOP_WINDOW_MS) {
    const sample = performance.eventLoopUtilization();
    loopBusy = performance.eventLoopUtilization(sample, loopSample).utilization;
    loopSample = sample;
    loopSampledAt = now;
  }
  return loopBusy < LOOP_LEND_BELOW;
}

export function expensiveWork(
  limits: { [K in keyof WorkLimits]?: Partial<FairQueueOptions> } = {},
): ExpensiveWork {
  const defaults = workLimits();
  return {
    signIns: new FairQueue({
      ...defaults.signIns,
      onStart: (waited) => imageQueueWait.observe({ queue: 'sign-ins' }, waited),
      ...limits.signIns,
    }),
    cpu: new FairQueue({
      ...defaults.cpu,
      onStart: (waited) => imageQueueWait.observe({ queue: 'images' }, waited),
      ...limits.cpu,
    }),
  };
}

/** The queue key of a signed-in account, of an account being signed into, and of an address. */
export const workKey = {
  user: (id: string) => `user:${id}`,
  account: (email: string) => `account:${email}`,
  address: (ip: string) => `address:${ip}`,
};
