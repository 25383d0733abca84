import { FairQueue, type FairQueueOptions } from './fair-queue';

/**
 * The queues of the server's expensive work, each shared fairly between accounts (fair-queue.ts).
 * Password hashing takes one core a job; images are decoded by one worker thread, one at a time.
 */
export interface ExpensiveWork {
  /** argon2 hashes and verifies: sign-ins are urgent, profile and admin changes normal */
  passwords: FairQueue;
  /** decoding and re-encoding uploaded images (proofs, profile photos, logo, favicon) */
  images: FairQueue;
}

export interface WorkLimits {
  passwords: FairQueueOptions;
  images: FairQueueOptions;
}

export const WORK_LIMITS: WorkLimits = {
  passwords: { concurrency: 2, perKey: 2, maxWaiting: 64 },
  images: { concurrency: 1, perKey: 2, maxWaiting: 16 },
};

export function expensiveWork(
  limits: { [K in keyof WorkLimits]?: Partial<FairQueueOptions> } = {},
): ExpensiveWork {
  return {
    passwords: new FairQueue({ ...WORK_LIMITS.passwords, ...limits.passwords }),
    images: new FairQueue({ ...WORK_LIMITS.images, ...limits.images }),
  };
}

/** The queue key of a signed-in account, of an account being signed into, and of an address. */
export const workKey = {
  user: (id: string) => `user:${id}`,
  account: (email: string) => `account:${email}`,
  address: (ip: string) => `address:${ip}`,
};
