import { availableParallelism } from 'node:os';
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

/** Jobs at once for each queue on a machine of `cores` cores: one core is the event loop's. */
export function workLimits(cores = availableParallelism()): WorkLimits {
  const heavy = Math.max(1, cores - 1);
  const signIns = Math.max(1, Math.floor(heavy / 3));
  return {
    signIns: { concurrency: signIns, perKey: 2, maxWaiting: 64 },
    cpu: { concurrency: Math.max(1, heavy - signIns), perKey: 2, maxWaiting: 64 },
  };
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
