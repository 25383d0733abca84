import NODE_FLAGS from '../../node-flags.json';
import { isSingleBinary } from '../is-single-binary';

/** Set in the environment of the move started again with the flags: it never starts a third time. */
export const MOVE_FLAGS_MARK = 'TASKREWARD_MOVE_FLAGS';

/**
 * The server's Node flags (a young generation of at most 16 MB, the old one collected each time it
 * grows by a fifth) that this process lacks. Left to V8's defaults, a move's stream of short-lived
 * rows and COPY text let the heap grow to ~95 MB where ~35 MB is live (measured on a tenth of the
 * bench's scale: 214 MB RSS at the peak against 149 MB with the flags). A flag the operator set
 * keeps its value.
 */
export function missingNodeFlags(execArgv: string[]): string[] {
  const given = new Set(execArgv.map((a) => a.split('=')[0]));
  return NODE_FLAGS.server.filter((f) => !given.has(f.split('=')[0]));
}

/**
 * Starts this move again, as the same process (execve keeps its pid and standard streams), with
 * the server's Node flags, when the bundle was started without them (`npm run cli`, a bare
 * `node dist/server/main.cjs`). The single binary carries them in itself; without execve (not
 * POSIX) the move runs as it is. Returns only when it does not start again.
 */
export function restartWithNodeFlags(): void {
  if (isSingleBinary() || process.env[MOVE_FLAGS_MARK] || typeof process.execve !== 'function') return;
  const script = process.argv[1];
  const missing = missingNodeFlags(process.execArgv);
  if (!script || missing.length === 0) return;
  try {
    process.execve(
      process.execPath,
      [process.argv[0], ...process.execArgv, ...missing, script, ...process.argv.slice(2)],
      {
        ...process.env,
        [MOVE_FLAGS_MARK]: '1',
      },
    );
  } catch (err) {
    // the move runs with more memory rather than not at all
    console.error(`could not start again with ${missing.join(' ')}: ${(err as Error).message}`);
  }
}
