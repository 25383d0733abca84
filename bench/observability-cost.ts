// What the request log and the metrics cost a request, measured so that a shared machine's
// swings cancel out (npm run bench runs it as bench/observability-step.ts):
//   npm run bench -- --observability-only
//   or: node build/bench.mjs --build-only && node dist/bench/observability-cost.cjs [--profile] [--seconds 20] > /tmp/lines.log
// stdout is the log's destination, as under a process manager (send it to a file); the figures go
// to stderr.
//
// --profile: the share of the server's main thread the log and the metrics take under wrk, from
//    a CPU profile of this process serving the "on" app (the JSON logger on stdout exactly as
//    `serve` makes it, the request histogram kept) over HTTP: a sample is theirs when its stack
//    runs through pino, sonic-boom, prom-client or the logger's, the metrics' or the line
//    writer's code. On a single busy event loop the throughput is 1 / the main thread's time per
//    request, so that share is the throughput they take. A share of one profile does not move
//    with the machine's speed the way two rates taken one after the other do: a slower minute
//    slows the log's samples and the rest alike. The request log's own lines (the request id, the
//    route's name), which run with the log off too, and GC are shown apart.
// Without --profile: the cost in microseconds, in this process: one app with neither ("off": the
//    silent logger, no histogram) and one with both, `GET /api/tasks` through each app's handler
//    in batches of 100 in the order off, on, on, off, ... (thousands of pairs of a few ms); the
//    median over the pairs of the difference in this process's CPU time per request; then the
//    whole request's CPU over HTTP under wrk, for the share.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createApp } from '../src-server/app';
import { openApp } from '../src-server/bootstrap';
import { readConfig } from '../src-server/config';
import { serveApp } from '../src-server/http/node-server';
import { createLogger, setLogger } from '../src-server/observability/logger';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 40);
const BATCH = 100;
const say = (m: string) => process.stderr.write(`${m}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'taskreward-obs-cost-'));
  const admin = { email: 'bench@taskreward.test', password: 'bench-pass-1' };
  const config = readConfig({
    ...process.env,
    DATA_DIR: dir,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    METRICS_TOKEN: '',
    METRICS_PORT: '',
  });
  const opened = await openApp(config);
  try {
    const off = createApp(opened.deps);
    const on = createApp({ ...opened.deps, config: { ...opened.deps.config, metricsToken: 'bench-token' } });
    const silent = pino({ level: 'silent' });
    const json = await createLogger({ level: 'info', format: 'json', node: 'bench' });

    // sixty tasks, as bench/observability.mjs seeds: a full first page of the list
    setLogger(silent);
    const login = await off.request('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(admin),
    });
    const { token } = (await login.json()) as { token: string };
    for (let i = 0; i < 60; i++) {
      const res = await off.request('/api/tasks', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({
          title: `Bench task ${i}`,
          description: 'A task for the bench: rate the app and upload a screenshot.',
          reward: 5 + (i % 10),
          maxCompletions: 100,
        }),
      });
      if (res.status !== 201) throw new Error(`seeding: ${res.status} ${await res.text()}`);
    }

    if (process.argv.includes('--profile')) {
      await profileShare(on, json);
      return;
    }

    const batch = async (app: typeof off, logger: typeof silent) => {
      setLogger(logger);
      const before = process.cpuUsage();
      for (let i = 0; i < BATCH; i++) {
        const res = await app.fetch(new Request('http://bench.local/api/tasks'));
        if (res.status !== 200) throw new Error(`list: ${res.status}`);
        await res.arrayBuffer();
      }
      // a turn of the event loop, as between requests of a server: the log's pending write goes
      const after = process.cpuUsage(before);
      await new Promise((r) => setImmediate(r));
      return (after.user + after.system) / BATCH;
    };
    // warm both paths (the compiler, the list cache)
    for (let i = 0; i < 50; i++) {
      await batch(off, silent);
      await batch(on, json);
    }
    // --part logs | metrics: one of the two alone (the other side as in "off")
    const part = process.argv.includes('--part') ? process.argv[process.argv.indexOf('--part') + 1] : 'both';
    const onApp = part === 'logs' ? off : on;
    const onLogger = part === 'metrics' ? silent : json;
    const diffs: number[] = [];
    const offUs: number[] = [];
    const onUs: number[] = [];
    const until = performance.now() + seconds * 1000;
    for (let pair = 0; performance.now() < until; pair++) {
      let a: number;
      let b: number;
      if (pair % 2 === 0) {
        a = await batch(off, silent);
        b = await batch(onApp, onLogger);
      } else {
        b = await batch(onApp, onLogger);
        a = await batch(off, silent);
      }
      offUs.push(a);
      onUs.push(b);
      diffs.push(b - a);
    }
    const cost = median(diffs);
    say(
      `in process, ${diffs.length} pairs of ${BATCH}-request batches (load ${loadavg()[0].toFixed(1)}): ` +
        `off ${median(offUs).toFixed(1)} µs CPU/request, ${part} ${median(onUs).toFixed(1)}; ` +
        `their cost ${cost.toFixed(2)} µs a request (quartiles of the pairs ${quantile(diffs, 0.25).toFixed(2)} to ${quantile(diffs, 0.75).toFixed(2)})`,
    );

    // the whole request's CPU over HTTP, "off", under wrk
    setLogger(silent);
    const server = serveApp(off.fetch, { port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tasks`;
    const wrk = (s: number) =>
      new Promise<{ rps: number; us: number }>((resolve, reject) => {
        const before = process.cpuUsage();
        const child = spawn('wrk', ['-t1', '-c16', `-d${s}s`, url]);
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.on('exit', () => {
          const used = process.cpuUsage(before);
          const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
          const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
          if (!requests) reject(new Error(`wrk: ${out}`));
          else resolve({ rps, us: (used.user + used.system) / requests });
        });
      });
    await wrk(3);
    const rounds: { rps: number; us: number }[] = [];
    for (let i = 0; i < 5; i++) rounds.push(await wrk(4));
    const whole = median(rounds.map((r) => r.us));
    say(
      `over HTTP, "off" under wrk c=16, 5 rounds of 4 s (load ${loadavg()[0].toFixed(1)}): ${median(rounds.map((r) => r.rps)).toFixed(0)} req/s, ` +
        `${whole.toFixed(1)} µs of this process's CPU per request (rounds ${rounds.map((r) => r.us.toFixed(0)).join(', ')})`,
    );
    say(
      `the log and the metrics: ${cost.toFixed(2)} µs of ${whole.toFixed(1)} µs, ${((cost / whole) * 100).toFixed(1)}% of a task-list request's CPU`,
    );
    server.close();
  } finally {
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The share of the server's main thread the log and the metrics take under wrk, from a CPU
 * profile of this process serving the "on" app over HTTP: a sample is theirs when its stack runs
 * through pino, sonic-boom, prom-client or the logger's own code, or sits in the request log's
 * own lines (not in the handlers it awaits). A share of one profile does not move with the
 * machine's speed the way two rates taken one after the other do: a slower minute slows the
 * log's samples and the rest alike. GC is shown apart (some of it is the log's garbage).
 */
async function profileShare(
  app: ReturnType<typeof createApp>,
  logger: Awaited<ReturnType<typeof createLogger>>,
) {
  setLogger(logger);
  const server = serveApp(app.fetch, { port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tasks`;
  const wrk = (s: number) =>
    new Promise<string>((resolve) => {
      const child = spawn('wrk', ['-t1', '-c16', `-d${s}s`, url]);
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.on('exit', () => resolve(out));
    });
  await wrk(3);
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  const out = await wrk(seconds);
  const { profile } = (await session.post('Profiler.stop')) as unknown as {
    profile: {
      nodes: {
        id: number;
        callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
        children?: number[];
      }[];
      samples: number[];
      timeDeltas: number[];
    };
  };
  session.disconnect();
  server.close();
  // in the bundle (dist/bench/observability-cost.cjs) every frame is the bundle's: its source map
  // says which file of the sources or of node_modules a frame's line and column come from
  const maps = new Map<string, SourceMap | null>();
  const sourceOf = (frame: { url: string; lineNumber: number; columnNumber: number }): string => {
    if (!frame.url.endsWith('.cjs')) return frame.url;
    let map = maps.get(frame.url);
    if (map === undefined) {
      try {
        const file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(frame.url, map);
    }
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as
      | { originalSource?: string }
      | undefined;
    return entry?.originalSource ?? frame.url;
  };
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const OURS =
    /\/node_modules\/(pino|sonic-boom|prom-client|pino-std-serializers|quick-format-unescaped|safe-stable-stringify|fast-redact|atomic-sleep|on-exit-leak-free)\/|observability\/(logger|metrics|line-writer)\.ts/;
  const REQUEST_LOG = /observability\/request-log\.ts/;
  const APP = /src-server\/|\/node_modules\/(hono|@hono)\//;
  const kind = new Map<number, 'log' | 'own' | 'idle' | 'gc' | 'other'>();
  const classify = (id: number): 'log' | 'own' | 'idle' | 'gc' | 'other' => {
    const known = kind.get(id);
    if (known) return known;
    const leaf = byId.get(id);
    let k: 'log' | 'own' | 'idle' | 'gc' | 'other' = 'other';
    const name = leaf?.callFrame.functionName ?? '';
    if (name === '(idle)') k = 'idle';
    else if (name === '(garbage collector)') k = 'gc';
    else {
      // up from the leaf: the log's libraries anywhere, or the request log's own lines reached
      // before any other app frame (what it runs itself, not the handlers under its next())
      let appBelow = false;
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)?.callFrame;
        const u = frame ? sourceOf(frame) : '';
        if (OURS.test(u)) {
          k = 'log';
          break;
        }
        if (REQUEST_LOG.test(u)) {
          if (!appBelow) k = 'own';
          break;
        }
        if (APP.test(u)) appBelow = true;
      }
    }
    kind.set(id, k);
    return k;
  };
  const ms = { log: 0, own: 0, idle: 0, gc: 0, other: 0 };
  const logLeaves = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const k = classify(id);
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    ms[k] += dt;
    if (k === 'log') {
      const f = byId.get(id)?.callFrame;
      const key = `${f?.functionName || '(anonymous)'} ${f ? sourceOf(f).replace(/^.*\//, '') : ''}`;
      logLeaves.set(key, (logLeaves.get(key) ?? 0) + dt);
    }
  });
  const busy = ms.log + ms.own + ms.gc + ms.other;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  say(
    `profile of the "on" server under wrk c=16, ${seconds} s, ${rps.toFixed(0)} req/s (load ${loadavg()[0].toFixed(1)}): main thread busy ${busy.toFixed(0)} ms; ` +
      `the log's and the metrics' libraries ${((ms.log / busy) * 100).toFixed(1)}% of it, the request log's own lines (which run with the log off too) ${((ms.own / busy) * 100).toFixed(1)}%, GC ${((ms.gc / busy) * 100).toFixed(1)}%, idle ${ms.idle.toFixed(0)} ms`,
  );
  const jsonAt = process.argv.indexOf('--json');
  if (jsonAt > 0)
    writeFileSync(
      process.argv[jsonAt + 1],
      JSON.stringify({
        rps,
        busyMs: busy,
        share: ms.log / busy,
        ownShare: ms.own / busy,
        gcShare: ms.gc / busy,
        load: loadavg()[0],
      }),
    );
  if (process.argv.includes('--top'))
    for (const [fn, t] of [...logLeaves.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15))
      say(`  ${((t / busy) * 100).toFixed(2).padStart(6)}%  ${fn}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
