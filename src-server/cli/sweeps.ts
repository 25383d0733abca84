import { withJobLock } from '../db/locks';
import type { AppDeps } from '../deps';
import { autoApprovePass } from '../features/submissions/auto-approve';
import { removeOrphanedProofs } from '../features/submissions/orphaned-proofs';
import { expiryPass, SWEEP_INTERVAL_MS } from '../features/tasks/task-expiry';
import { removeExpiredSessions } from '../features/users/sessions.service';
import { timedJobRun } from '../observability/jobs';
import { removeOrphanedImages } from '../storage/orphaned-images';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'push' | 'config' | 'mail' | 'files'>;
type Log = (line: string) => void;
/** A pass returns what it did, by count ("expired": 3), for its job-run record. */
type Counts = Record<string, number>;
type Pass = readonly [name: string, run: (deps: Deps, log: Log) => Promise<unknown>];

/** What a pass returned, when it returned counts. */
function countsOf(value: unknown): Counts {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter(([, n]) => typeof n === 'number'));
}

/** How often nodes sharing a database look for stored files no row names. */
export const ORPHAN_CLEANUP_INTERVAL_MS = 60 * 60_000;

/**
 * How old a file no row names must be before the clean-up removes it: an upload is written
 * before the row that names it commits, and on another node it may be under way right now.
 */
export const ORPHAN_GRACE_MS = 60 * 60_000;

/**
 * Runs `passes` now and every `intervalMs` until stopped, one round at a time. Each pass runs
 * under its job lock (db/locks.ts): on nodes sharing a database one node at a time
 * runs it, the others skip that turn. A failed pass (the database busy) is logged and retried at
 * the next tick; `stop` waits for a round under way.
 */
export function startPeriodic(deps: Deps, log: Log, intervalMs: number, passes: readonly Pass[]) {
  let stopped = false;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (stopped || running) return;
    running = (async () => {
      for (const [name, pass] of passes) {
        if (stopped) return;
        try {
          // each run recorded (observability/jobs.ts): a log line, the job metrics, the System screen
          await timedJobRun(name, async () => {
            const done = await withJobLock(deps.db, `job:${name}`, () => pass(deps, log));
            return done === null ? null : countsOf(done);
          });
        } catch (err) {
          log(`${name} sweep failed, retrying later: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    })().finally(() => {
      running = null;
    });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * The server's periodic work, every SWEEP_INTERVAL_MS: started tasks past their time
 * limit give back their slots and comments, then proofs left pending past the auto-approval days
 * are approved.
 */
export function startSweeps(deps: Deps, log: Log) {
  return startPeriodic(deps, log, SWEEP_INTERVAL_MS, [
    ['expiry', expiryPass],
    ['auto-approval', autoApprovePass],
  ]);
}

/**
 * Proof files and images no row names and older than ORPHAN_GRACE_MS are removed (what a kill
 * between a file's durable write and its row's commit leaves). One server does it at its start
 * with no grace (bootstrap.ts: no upload can be under way then); nodes sharing a database and
 * its files never can be sure of that, so they run this every ORPHAN_CLEANUP_INTERVAL_MS instead.
 */
export async function orphanCleanupPass(deps: Deps, log: Log): Promise<Counts> {
  const now = deps.clock();
  const proofs = await removeOrphanedProofs(deps.db, deps.files, now, ORPHAN_GRACE_MS);
  if (proofs > 0) log(`removed ${proofs} proof file(s) left without a submission for over an hour`);
  const images = await removeOrphanedImages(deps.db, deps.files, now, ORPHAN_GRACE_MS);
  if (images > 0) log(`removed ${images} image(s) left without a user or setting for over an hour`);
  return { proofs, images };
}

/** The orphan clean-up of nodes sharing a database, now and every ORPHAN_CLEANUP_INTERVAL_MS. */
export function startOrphanCleanup(deps: Deps, log: Log) {
  return startPeriodic(deps, log, ORPHAN_CLEANUP_INTERVAL_MS, [['orphan-cleanup', orphanCleanupPass]]);
}

/** How often the rows of expired sessions are removed. */
export const SESSION_CLEANUP_INTERVAL_MS = 60 * 60_000;

/** The rows of sessions past their end, removed (their tokens died with them already). */
export async function sessionCleanupPass(deps: Deps, log: Log): Promise<Counts> {
  const done = await removeExpiredSessions(deps);
  if (done.removed > 0) log(`removed ${done.removed} expired session(s)`);
  return done;
}

/** The expired-session clean-up, now and every SESSION_CLEANUP_INTERVAL_MS, one node at a time. */
export function startSessionCleanup(deps: Deps, log: Log) {
  return startPeriodic(deps, log, SESSION_CLEANUP_INTERVAL_MS, [['session-cleanup', sessionCleanupPass]]);
}
