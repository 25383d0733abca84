import { log } from './logger';
import { jobFailures, jobLastRun, jobLastSuccess, jobRuns } from './metrics';

/** What one run of a background job did: counts by what they count ("expired": 3). */
export interface JobRunResult {
  ok: boolean;
  counts?: Record<string, number>;
  /** Why a failed run failed, in words (an error's message, never its data). */
  error?: string;
  /** The run found another node doing it and did nothing. */
  skipped?: boolean;
}

/** The last run of one job on this node, as the System screen shows it. */
export interface JobRunRecord {
  name: string;
  lastRunAt: string;
  lastOk: boolean;
  lastSuccessAt: string | null;
  lastError: string | null;
  counts: Record<string, number>;
  durationMs: number | null;
  runs: number;
  failures: number;
  /** Failed runs since the last good one: the System screen warns from the first. */
  failingSince: string | null;
}

const records = new Map<string, JobRunRecord>();

/**
 * Records one run of a background job: a log line with its outcome and counts, the job metrics
 * and the System screen's table. Every job reports through this, once per run, whatever it did
 * (a run that did nothing reports zero counts: the screen shows it is alive).
 */
export function recordJobRun(name: string, result: JobRunResult, durationMs?: number): void {
  const now = new Date();
  const at = now.toISOString();
  const seconds = now.getTime() / 1000;
  const previous = records.get(name);
  const counts = result.counts ?? {};
  const record: JobRunRecord = {
    name,
    lastRunAt: at,
    lastOk: result.ok,
    lastSuccessAt: result.ok ? at : (previous?.lastSuccessAt ?? null),
    lastError: result.ok ? null : (result.error ?? 'failed'),
    counts,
    durationMs: durationMs ?? null,
    runs: (previous?.runs ?? 0) + 1,
    failures: (previous?.failures ?? 0) + (result.ok ? 0 : 1),
    failingSince: result.ok ? null : (previous?.failingSince ?? at),
  };
  records.set(name, record);
  jobLastRun.set({ job: name }, seconds);
  jobRuns.inc({ job: name, outcome: result.skipped ? 'skipped' : result.ok ? 'ok' : 'failed' });
  if (result.ok) jobLastSuccess.set({ job: name }, seconds);
  else jobFailures.inc({ job: name });
  const fields = {
    job: name,
    outcome: result.skipped ? 'skipped' : result.ok ? 'ok' : 'failed',
    counts,
    ...(durationMs !== undefined ? { ms: Math.round(durationMs) } : {}),
    ...(result.ok ? {} : { error: record.lastError }),
  };
  if (result.ok) log().info(fields, `job ${name} ${fields.outcome}`);
  else log().warn(fields, `job ${name} failed: ${record.lastError}`);
}

/**
 * Runs `job` and records its run: its counts when it returns, its error's message when it
 * throws (and throws it on). `null` from the job means another node held it: a skipped run.
 */
export async function timedJobRun<T extends Record<string, number> | null>(
  name: string,
  job: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    const counts = await job();
    recordJobRun(
      name,
      counts === null ? { ok: true, skipped: true } : { ok: true, counts },
      performance.now() - started,
    );
    return counts;
  } catch (err) {
    recordJobRun(
      name,
      { ok: false, error: err instanceof Error ? err.message : String(err) },
      performance.now() - started,
    );
    throw err;
  }
}

/** Every job's last run on this node, by name. */
export function jobRunRecords(): JobRunRecord[] {
  return [...records.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Forgets every run (tests). */
export function resetJobRuns(): void {
  records.clear();
}
