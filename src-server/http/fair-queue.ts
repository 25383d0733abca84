import { fail } from './app-error';

export interface FairQueueOptions {
  /** Jobs running at once (the cores or threads the work may take). */
  concurrency: number;
  /** Jobs one key (an account) may hold at once: reserved, waiting or running. */
  perKey: number;
  /** Jobs waiting for a turn, across keys; one more is refused with 503 busy. */
  maxWaiting: number;
  /** What Retry-After says to a refused request. */
  retryAfterSeconds?: number;
}

/** Urgent jobs (a sign-in) go before normal ones (a profile save) whenever a slot frees. */
export type Priority = 'urgent' | 'normal';

interface Waiting {
  start(): void;
}

/**
 * A place held in a FairQueue by one key, before its job is known: an upload reserves one
 * before its body is read, so a flooding account is refused before it costs bandwidth or disk.
 * `run` turns it into a job; `release` gives it back unused. Either ends it.
 */
export interface Ticket {
  run<T>(job: () => Promise<T>, priority?: Priority): Promise<T>;
  release(): void;
}

/**
 * Expensive work (password hashing, image decoding) shared fairly between accounts: at most
 * `concurrency` jobs run, each key holds at most `perKey` places (one more is a 429 for that
 * account only), and at most `maxWaiting` jobs wait (one more is a 503 busy). Waiting jobs
 * take turns round-robin between keys, urgent ones first, so one account flooding the queue
 * delays another account's job by at most one job of its own per running slot.
 */
export class FairQueue {
  private running = 0;
  private waitingCount = 0;
  private readonly held = new Map<string, number>();
  // per priority, the keys with waiting jobs in turn order (a Map keeps insertion order)
  private readonly turns: Record<Priority, Map<string, Waiting[]>> = { urgent: new Map(), normal: new Map() };

  constructor(private readonly options: FairQueueOptions) {}

  /** Holds a place for `key`, or throws 429 when the key already holds all of its own. */
  reserve(key: string): Ticket {
    const count = this.held.get(key) ?? 0;
    if (count >= this.options.perKey) throw fail.throttled(this.retryAfter());
    this.held.set(key, count + 1);
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
    return {
      run: (job, priority = 'normal') => {
        if (done) return Promise.reject(new Error('FairQueue: ticket already used'));
        return this.schedule(key, priority, job).finally(release);
      },
      release,
    };
  }

  /** reserve + run: a job whose input is already at hand. */
  run<T>(key: string, job: () => Promise<T>, priority: Priority = 'normal'): Promise<T> {
    return this.reserve(key).run(job, priority);
  }

  /** Running and waiting jobs, and places held (for tests and the bench). */
  stats(): { running: number; waiting: number; keys: number } {
    return { running: this.running, waiting: this.waitingCount, keys: this.held.size };
  }

  private retryAfter(): number {
    return this.options.retryAfterSeconds ?? 1;
  }

  private schedule<T>(key: string, priority: Priority, job: () => Promise<T>): Promise<T> {
    const execute = async (): Promise<T> => {
      this.running++;
      try {
        return await job();
      } finally {
        this.running--;
        this.next();
      }
    };
    if (this.running < this.options.concurrency && this.waitingCount === 0) return execute();
    if (this.waitingCount >= this.options.maxWaiting) {
      return Promise.reject(fail.busy(this.retryAfter()));
    }
    return new Promise<T>((resolve, reject) => {
      const turns = this.turns[priority];
      const queue = turns.get(key) ?? [];
      queue.push({ start: () => execute().then(resolve, reject) });
      turns.set(key, queue);
      this.waitingCount++;
    });
  }

  /** Starts waiting jobs while slots are free: urgent first, then round-robin by key. */
  private next(): void {
    while (this.running < this.options.concurrency && this.waitingCount > 0) {
      const turns = this.turns.urgent.size > 0 ? this.turns.urgent : this.turns.normal;
      const [key, queue] = turns.entries().next().value as [string, Waiting[]];
      const job = queue.shift() as Waiting;
      // the key goes to the back of the line, or leaves it when it has nothing more waiting
      turns.delete(key);
      if (queue.length > 0) turns.set(key, queue);
      this.waitingCount--;
      job.start();
    }
  }
}
