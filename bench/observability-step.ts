// The cost of the request log and the metrics as a step of `npm run bench`: bench/observability.mjs
// in its paired mode (an "off" and an "on" server up side by side, loaded by wrk in short
// alternating turns), its figures read back from the JSON it writes.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface ObservabilityCost {
  mode: string;
  pairs: number;
  turnSeconds: number;
  load: number;
  offRps: number;
  rps: number;
  /** The median over the pairs of the drop in requests per second against "off", in percent. */
  cost: number;
  costQuartiles: string;
  /** The same for the server's CPU time per request. */
  cpuCost: number;
  cpuCostQuartiles: string;
  offCpuMicros: number;
  cpuMicros: number;
}

export interface ObservabilityProfile {
  /** The log's and the metrics' share of the main thread's busy time, per run. */
  shares: number[];
  /** The request log's own lines (they run with the log off too), per run. */
  ownShares: number[];
  gcShares: number[];
  rps: number[];
  seconds: number;
  load: number;
}

/**
 * The profile-share measure (bench/observability-cost.ts --profile), `runs` times: the log's and
 * the metrics' share of the serving thread's time under wrk.
 */
export function measureObservabilityProfile(options: { quick: boolean }): ObservabilityProfile | null {
  if (spawnSync('wrk', ['--version']).error) return null;
  const scratch = mkdtempSync(join(tmpdir(), 'taskreward-obs-prof-'));
  try {
    const runs = options.quick ? 1 : 5;
    const seconds = options.quick ? 3 : 10;
    const out: ObservabilityProfile = { shares: [], ownShares: [], gcShares: [], rps: [], seconds, load: 0 };
    for (let i = 0; i < runs; i++) {
      const file = join(scratch, `profile-${i}.json`);
      // the lines go to a file, as a server's stdout under a process manager
      const lines = openSync(join(scratch, 'lines.log'), 'w');
      const run = spawnSync(
        process.execPath,
        [
          resolve('dist/bench/observability-cost.cjs'),
          '--profile',
          '--seconds',
          String(seconds),
          '--json',
          file,
        ],
        { encoding: 'utf8', stdio: ['ignore', lines, 'inherit'] },
      );
      closeSync(lines);
      if (run.status !== 0) throw new Error('dist/bench/observability-cost.cjs --profile failed');
      const r = JSON.parse(readFileSync(file, 'utf8')) as {
        rps: number;
        share: number;
        ownShare: number;
        gcShare: number;
        load: number;
      };
      out.shares.push(r.share);
      out.ownShares.push(r.ownShare);
      out.gcShares.push(r.gcShare);
      out.rps.push(r.rps);
      out.load = r.load;
    }
    return out;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Null when wrk is not installed (the paired mode needs it). */
export function measureObservability(options: { quick: boolean }): ObservabilityCost | null {
  if (spawnSync('wrk', ['--version']).error) return null;
  const scratch = mkdtempSync(join(tmpdir(), 'taskreward-obs-step-'));
  try {
    const file = join(scratch, 'figures.json');
    const pairs = options.quick ? '4' : '20';
    const turn = options.quick ? '1' : '2';
    const run = spawnSync(
      process.execPath,
      [resolve('bench/observability.mjs'), '--paired', '--pairs', pairs, '--turn', turn, '--json', file],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (run.status !== 0) throw new Error(`bench/observability.mjs failed: ${run.stdout}`);
    const figures = JSON.parse(readFileSync(file, 'utf8')) as ObservabilityCost[];
    return figures.find((f) => f.mode === 'on') ?? null;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
