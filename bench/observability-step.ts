// The cost of the request log and the metrics as a step of `npm run bench`: bench/observability.mjs
// in its paired mode (an "off" and an "on" server up side by side, loaded by wrk in short
// alternating turns), its figures read back from the JSON it writes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
