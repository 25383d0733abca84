import { fail } from '../errors';

export interface FairQueueOptions {
  /** Jobs running at once (the cores or threads the work may take). */
  concurrency: number;
  /** Jobs one key (an account) may hold at once: reserved, waiting or running. */
  perKey: number;
  /** Jobs waiting for a turn, across keys; one more is refused with 503 busy. */
  maxWaiting: number;
  /** What Retry-After says to a refused request. */
  retryAfterSeconds?: number;
  /**
   * A key refused again within this many ms is flooding: its refusal closes the connection
   * instead of reading the rest of the body (the first refusal is read to the end, so a
   * browser shows it). 10 s by default.
   */
  floodWindowMs?: number;
  /** Told how long each job waited for its turn, in seconds, as it starts (the queue-wait metric). */
  onStart?: (waitedSeconds: number) => void;
}

interface Waiting {
  start(): void;
}

/**
 * A place held in a FairQueue by one key, before its job is known: an upload reserves one
 * before its body is read, so a flooding account is refused before it costs bandwidth or disk.
 * `run` turns it into a job; `release` gives it back unused. Either ends it.
 */
export interface Ticket {
  run<T>(job: () => Promise<T>): Promise<T>;
  release(): void;
}

/**
 * Expensive work (password hashing, image decoding) shared fairly between accounts: at most
 * `concurrency` jobs run, each key holds at most `perKey` places (one more is a 429 for that
 * account only), and at most `maxWaiting` jobs wait (one more is a 503 busy). Waiting jobs
 * take turns between keys, the account served longest ago first, so one
 * account flooding the queue delays another account's job by at most the jobs of its own
 * already running.
 */
export class FairQueue {
  private running = 0;
  private waitingCount = 0;
  private readonly held = new Map<string, number>();
  private readonly refusedAt = new Map<string, number>();
  // when each key holding places last had a job started (a counter): the key served longest
  // ago goes next
  private readonly servedAt = new Map<string, number>();
  private starts = 0;
  // the keys with waiting jobs, in the order they began waiting (a Map keeps insertion order)
  private readonly turns = new Map<string, Waiting[]>();

  constructor(private readonly options: FairQueueOptions) {}

  /** Holds a place for `key`, or throws 429 when the key already holds all of its own. */
  reserve(key: string): Ticket {
    const count = this.held.get(key) ?? 0;
    if (count >= this.options.perKey) throw this.refuse(key);
    this.held.set(key, count + 1);
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else {
        this.held.delete(key);
        this.servedAt.delete(key);
      }
    };
    return {
      run: (job) => {
        if (done) return Promise.reject(new Error('FairQueue: ticket already used'));
        return this.schedule(key, job).finally(release);
      },
      release,
    };
  }

  /** reserve + run: a job whose input is already at hand. */
  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    return this.reserve(key).run(job);
  }

  /** How many jobs run at once and how many may wait (the metrics show them beside the depth). */
  limits(): { concurrency: number; maxWaiting: number } {
    return { concurrency: this.options.concurrency, maxWaiting: this.options.maxWaiting };
  }

  /** Running and waiting jobs, and places held (for tests and the bench). */
  stats(): { running: number; waiting: number; keys: number } {
    return { running: this.running, waiting: this.waitingCount, keys: this.held.size };
  }

  /** The 429 for a key over its share; a key refused again soon is cut off (closeConnection). */
  private refuse(key: string) {
    const now = Date.now();
    const window = this.options.floodWindowMs ?? 10_000;
    const err = fail.throttled(this.retryAfter());
    err.closeConnection = now - (this.refusedAt.get(key) ?? Number.NEGATIVE_INFINITY) < window;
    if (this.refusedAt.size >= 10_000) {
      for (const [k, at] of this.refusedAt) if (now - at >= window) this.refusedAt.delete(k);
    }
    this.refusedAt.set(key, now);
    return err;
  }

  private retryAfter(): number {
    return this.options.retryAfterSeconds ?? 1;
  }

  private schedule<T>(key: string, job: () => Promise<T>): Promise<T> {
    const queued = performance.now();
    const execute = async (): Promise<T> => {
      this.options.onStart?.((performance.now() - queued) / 1000);
      this.running++;
      this.servedAt.set(key, ++this.starts);
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
      const queue = this.turns.get(key) ?? [];
      queue.push({ start: () => execute().then(resolve, reject) });
      this.turns.set(key, queue);
      this.waitingCount++;
    });
  }

  /**
   * Starts waiting jobs while slots are free: among the keys waiting, the one served longest
   * ago (one never served first), then the one that has waited longest. An account flooding
   * the queue is served no more often than each other account waiting.
   */
  private next(): void {
    const turns = this.turns;
    while (this.running < this.options.concurrency && this.waitingCount > 0) {
      let key = '';
      let queue: Waiting[] = [];
      let oldest = Number.POSITIVE_INFINITY;
      for (const [k, q] of turns) {
        const served = this.servedAt.get(k) ?? 0;
        if (served < oldest) {
          [key, queue, oldest] = [k, q, served];
          if (served === 0) break;
        }
      }
      const job = queue.shift() as Waiting;
      // the key goes to the back of the line, or leaves it when it has nothing more waiting
      turns.delete(key);
      if (queue.length > 0) turns.set(key, queue);
      this.waitingCount--;
      job.start();
    }
  }
}
