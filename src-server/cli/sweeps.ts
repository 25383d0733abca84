import type { AppDeps } from '../deps';
import { autoApprovePass } from '../features/review/auto-approve';
import { expiryPass, SWEEP_INTERVAL_MS } from '../features/tasks/task-expiry';

/**
 * The server's periodic work (issue 15), every SWEEP_INTERVAL_MS until stopped, one pass at a
 * time: started tasks past their time limit give back their slots and comments, then proofs
 * left pending past the auto-approval days are approved. A failed pass (the database busy) is
 * logged and retried at the next tick; `stop` waits for a pass under way.
 */
export function startSweeps(deps: Pick<AppDeps, 'db' | 'clock' | 'push'>, log: (line: string) => void) {
  let stopped = false;
  let running: Promise<void> | null = null;
  const passes = [
    ['expiry', expiryPass],
    ['auto-approval', autoApprovePass],
  ] as const;
  const tick = () => {
    if (stopped || running) return;
    running = (async () => {
      for (const [name, pass] of passes) {
        if (stopped) return;
        try {
          await pass(deps, log);
        } catch (err) {
          log(`${name} sweep failed, retrying later: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    })().finally(() => {
      running = null;
    });
  };
  tick();
  const timer = setInterval(tick, SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
