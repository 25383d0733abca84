// A small closed-loop HTTP load generator over keep-alive sockets: `concurrency` workers,
// each sending its next request when the last one answered, for a duration or a count.
// Reports throughput and latency percentiles; used by the benchmarks and the fault suites.
import http from 'node:http';

export interface RequestSpec {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Requests answered per second. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** How many answers had each status code. */
  statuses: Record<number, number>;
}

export interface LoadOptions {
  /** The server; several (app nodes behind no balancer): worker w sends to url[w % url.length]. */
  url: string | string[];
  concurrency: number;
  /** Stop after this long; or after `requests` in all (whichever is given; both stop at the first). */
  durationMs?: number;
  requests?: number;
  /** The request a worker sends next; `i` counts every request started. */
  next: (i: number, worker: number) => RequestSpec | Promise<RequestSpec>;
  /** Sees every answer (for checks); an exception stops the run and rejects it. */
  onAnswer?: (answer: Answer, spec: RequestSpec, worker: number) => void | Promise<void>;
}

/** One request on the given agent; resolves with the whole answer. */
export function send(url: string, spec: RequestSpec, agent?: http.Agent): Promise<Answer> {
  const target = new URL(spec.path, url);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...spec.headers };
    if (spec.body !== undefined) headers['content-length'] = Buffer.byteLength(spec.body);
    const req = http.request(target, { method: spec.method ?? 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}

/** The value at quantile q (0..1) of a sorted array. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function median(values: number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const urls = typeof options.url === 'string' ? [options.url] : options.url;
  const deadline = options.durationMs ? performance.now() + options.durationMs : Number.POSITIVE_INFINITY;
  const limit = options.requests ?? Number.POSITIVE_INFINITY;
  let started = 0;
  const t0 = performance.now();
  const worker = async (w: number) => {
    while (started < limit && performance.now() < deadline) {
      const spec = await options.next(started++, w);
      const answer = await send(urls[w % urls.length], spec, agent);
      latencies.push(answer.ms);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      await options.onAnswer?.(answer, spec, w);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, (_, w) => worker(w)));
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? 0,
    statuses,
  };
}

/** Runs `round` several times; the median throughput and latencies over the rounds. */
export async function rounds(
  count: number,
  round: () => Promise<LoadResult>,
): Promise<LoadResult & { rounds: LoadResult[] }> {
  const all: LoadResult[] = [];
  for (let i = 0; i < count; i++) all.push(await round());
  const statuses: Record<number, number> = {};
  for (const r of all)
    for (const [s, n] of Object.entries(r.statuses)) statuses[Number(s)] = (statuses[Number(s)] ?? 0) + n;
  return {
    requests: all.reduce((a, r) => a + r.requests, 0),
    seconds: all.reduce((a, r) => a + r.seconds, 0),
    rps: median(all.map((r) => r.rps)),
    p50: median(all.map((r) => r.p50)),
    p99: median(all.map((r) => r.p99)),
    max: Math.max(...all.map((r) => r.max)),
    statuses,
    rounds: all,
  };
}
