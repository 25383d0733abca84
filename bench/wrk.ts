// wrk (Debian's `wrk` package, a C load generator) loading the same URLs as bench/load.ts, so
// the limits and the task list can be read with a client that takes little of the two cores
// the server shares with it (the bench's own client must not be the bottleneck).
// One wrk thread, keep-alive connections, a Lua script cycling through the paths (and the
// Authorization headers, when given); its `done` hook prints the figures as one JSON line.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadResult, median } from './load';

export interface WrkOptions {
  url: string;
  /** Request paths, sent in turn. */
  paths: readonly string[];
  /** Authorization header values, sent in turn with the paths (none: anonymous). */
  authorizations?: readonly string[];
  connections: number;
  durationMs: number;
}

export interface WrkResult extends LoadResult {
  /** Answers that were not 2xx or 3xx, and socket errors. */
  failures: number;
}

/** wrk's version line, or null when it is not installed. */
export function wrkVersion(): string | null {
  const out = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (out.error) return null;
  const line = `${out.stdout}${out.stderr}`.split('\n')[0]?.trim() ?? '';
  return /^wrk /.test(line) ? line.replace(/ Copyright.*$/, '') : null;
}

const lua = (items: readonly string[]) => `{ ${items.map((p) => JSON.stringify(p)).join(', ')} }`;

function script(paths: readonly string[], authorizations: readonly string[]): string {
  return `
local paths = ${lua(paths)}
local auths = ${lua(authorizations)}
local i = 0
request = function()
  i = i + 1
  local path = paths[(i % #paths) + 1]
  if #auths > 0 then
    return wrk.format("GET", path, { ["Authorization"] = auths[(i % #auths) + 1] })
  end
  return wrk.format("GET", path)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK {"requests":%d,"seconds":%.6f,"p50":%.3f,"p99":%.3f,"max":%.3f,"status":%d,"socket":%d}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
`;
}

/** One wrk run; rejects when wrk fails or prints no figures. */
export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'taskreward-wrk-'));
  try {
    const file = join(dir, 'paths.lua');
    writeFileSync(file, script(options.paths, options.authorizations ?? []));
    const seconds = Math.max(1, Math.round(options.durationMs / 1000));
    const args = [
      '-t1',
      `-c${options.connections}`,
      `-d${seconds}s`,
      '--timeout',
      '10s',
      '-s',
      file,
      options.url,
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (c: Buffer) => {
        text += c.toString();
      });
      child.stderr.on('data', (c: Buffer) => {
        text += c.toString();
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}:\n${text}`)),
      );
    });
    const line = /WRK (\{.*\})/.exec(output);
    if (!line) throw new Error(`wrk printed no figures:\n${output}`);
    const r = JSON.parse(line[1]) as {
      requests: number;
      seconds: number;
      p50: number;
      p99: number;
      max: number;
      status: number;
      socket: number;
    };
    return {
      requests: r.requests,
      seconds: r.seconds,
      rps: r.requests / r.seconds,
      p50: r.p50,
      p99: r.p99,
      max: r.max,
      statuses: { 200: r.requests - r.status },
      failures: r.status + r.socket,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A warm-up, then `count` runs; the median throughput and latencies, failures summed. */
export async function wrkRounds(
  count: number,
  warmMs: number,
  options: WrkOptions,
): Promise<WrkResult & { rounds: WrkResult[] }> {
  if (warmMs > 0) await runWrk({ ...options, durationMs: warmMs });
  const all: WrkResult[] = [];
  for (let i = 0; i < count; i++) all.push(await runWrk(options));
  return {
    requests: all.reduce((a, r) => a + r.requests, 0),
    seconds: all.reduce((a, r) => a + r.seconds, 0),
    rps: median(all.map((r) => r.rps)),
    p50: median(all.map((r) => r.p50)),
    p99: median(all.map((r) => r.p99)),
    max: Math.max(...all.map((r) => r.max)),
    statuses: { 200: all.reduce((a, r) => a + (r.statuses[200] ?? 0), 0) },
    failures: all.reduce((a, r) => a + r.failures, 0),
    rounds: all,
  };
}
