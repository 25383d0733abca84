import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { workLimits } from './expensive-work';
import { FairQueue } from './fair-queue';

/** A job that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const released = new Promise<void>((r) => {
    open = r;
  });
  return {
    job: async () => {
      log.push(name);
      await released;
      return name;
    },
    open,
  };
}

async function refusal(p: () => unknown): Promise<AppError> {
  try {
    await p();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected a refusal');
}

const tick = () => new Promise((r) => setImmediate(r));

describe('FairQueue', () => {
  it('runs at most `concurrency` jobs at once and starts the next as one ends', async () => {
    const q = new FairQueue({ concurrency: 2, perKey: 5, maxWaiting: 10 });
    const log: string[] = [];
    const gates = ['a', 'b', 'c'].map((n) => gate(log, n));
    const done = gates.map((g, i) => q.run(`k${i}`, g.job));
    await tick();
    expect(log).toEqual(['a', 'b']);
    expect(q.stats()).toMatchObject({ running: 2, waiting: 1 });
    gates[0].open();
    await done[0];
    await tick();
    expect(log).toEqual(['a', 'b', 'c']);
    gates[1].open();
    gates[2].open();
    expect(await Promise.all(done)).toEqual(['a', 'b', 'c']);
    expect(q.stats()).toEqual({ running: 0, waiting: 0, keys: 0 });
  });

  it("refuses a key's place beyond its share with 429, and only that key", async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 2, maxWaiting: 10 });
    const first = q.reserve('flooder');
    q.reserve('flooder');
    const err = await refusal(() => q.reserve('flooder'));
    expect([err.status, err.code, err.extra.retryAfter]).toEqual([429, 'too_many_requests', 1]);
    q.reserve('someone-else').release();
    first.release();
    q.reserve('flooder').release();
  });

  it('refuses a job with 503 busy when the waiting line is full', async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 1, maxWaiting: 2, retryAfterSeconds: 2 });
    const log: string[] = [];
    const running = gate(log, 'running');
    const held = [q.run('a', running.job), q.run('b', async () => 'b'), q.run('c', async () => 'c')];
    const err = await refusal(() => q.run('d', async () => 'd'));
    expect([err.status, err.code, err.extra.retryAfter]).toEqual([503, 'busy', 2]);
    // the refused job gave its place back
    expect(q.stats().keys).toBe(3);
    running.open();
    expect(await Promise.all(held)).toEqual(['running', 'b', 'c']);
  });

  it('gives waiting keys turns, so a key with many jobs does not go first with all of them', async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 3, maxWaiting: 10 });
    const log: string[] = [];
    const record = (name: string) => async () => {
      log.push(name);
      return name;
    };
    const first = gate(log, 'a1');
    const all = [q.run('a', first.job)];
    for (const name of ['a2', 'a3']) all.push(q.run('a', record(name)));
    all.push(q.run('b', record('b1')));
    first.open();
    await Promise.all(all);
    expect(log).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('gives the place back when a job fails, and goes on with the next', async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 1, maxWaiting: 10 });
    await expect(q.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await q.run('a', async () => 'again')).toBe('again');
    expect(q.stats()).toEqual({ running: 0, waiting: 0, keys: 0 });
  });

  it('lets a ticket be used once', async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 1, maxWaiting: 10 });
    const ticket = q.reserve('a');
    expect(await ticket.run(async () => 1)).toBe(1);
    await expect(ticket.run(async () => 2)).rejects.toThrow('already used');
    expect(q.stats().keys).toBe(0);
  });
});

describe('FairQueue turns', () => {
  it('serves a key with nothing running before a key that already has a job running', async () => {
    const q = new FairQueue({ concurrency: 1, perKey: 2, maxWaiting: 10 });
    const log: string[] = [];
    const first = gate(log, 'flood-1');
    const all = [q.run('flooder', first.job)];
    all.push(q.run('flooder', async () => String(log.push('flood-2'))));
    all.push(q.run('victim', async () => String(log.push('victim'))));
    first.open();
    await Promise.all(all);
    // the victim arrived last but the flooder already had its turn
    expect(log).toEqual(['flood-1', 'victim', 'flood-2']);
  });
});

describe('workLimits', () => {
  it.each([
    [1, 1, 1],
    [2, 1, 1],
    [4, 1, 2],
    [8, 2, 5],
  ])(
    'on %i cores gives sign-ins %i and the rest %i jobs at once, leaving the event loop a core where there is one to spare',
    (cores, signIns, cpu) => {
      const limits = workLimits(cores);
      expect([limits.signIns.concurrency, limits.cpu.concurrency]).toEqual([signIns, cpu]);
    },
  );
});
