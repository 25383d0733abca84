import { isSingleBinary } from './is-single-binary';

/**
 * glibc's malloc, tuned for the server (docs/decisions.md "Images on sharp", the memory part).
 * Left to itself, glibc raises its mmap threshold to the size of every large block freed, up to
 * 32 MiB: after the first sign-in, argon2's 19 MiB per check, and libvips' buffers after the first
 * upload, come from the per-thread arenas of libuv's workers and stay in the process after they
 * are freed (+85-100 MB after a burst of sign-ins, measured in BENCHMARKS.md). A fixed threshold
 * keeps blocks of 128 KiB and more in their own mappings, given back to the system when freed.
 * And each new thread (libvips makes several per upload) gets an arena of its own, up to 8 per
 * core, each keeping what it held (~7 MB per libvips thread, seen in /proc/PID/smaps): all the
 * threads share the main one instead (with two, the second held ~15 MB, most of it free, under a
 * steady stream of uploads). glibc reads its tunables only from the environment at a
 * process's start, so the server starts itself again at once, as the same process (execve keeps
 * its pid and its standard streams), with the tunables added.
 */
export const MALLOC_TUNABLES = ['glibc.malloc.mmap_threshold=131072', 'glibc.malloc.arena_max=1'];
/** GLIBC_TUNABLES as the server sets it when the environment has none of them. */
export const MALLOC_TUNABLE = MALLOC_TUNABLES.join(':');
/**
 * Set in the environment of the second start, which never starts again: at most one restart
 * whatever a glibc leaves of GLIBC_TUNABLES in the environment it hands the process (2.36 keeps
 * it whole in `environ` but ends it at the first tunable in /proc/PID/environ).
 */
export const TUNED_MARK = 'TASKREWARD_MALLOC_TUNED';

export interface ProcessFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  execPath: string;
  execArgv: string[];
  argv: string[];
  /** running as the single binary: its Node flags come from the binary itself, argv[1] is filler */
  singleBinary: boolean;
  /** running inside Electron (the desktop shell starts the server as its own process instead) */
  electron: boolean;
  /** process.execve exists (Node 22.15 and later, POSIX) */
  canExec: boolean;
}

/** The command the CLI runs for these arguments is the long-running server. */
function startsServer(args: string[]): boolean {
  const first = args[0];
  if (first === undefined || first === 'serve') return true;
  return first.startsWith('-') && !['--help', '-h', '--version', '-v'].includes(first);
}

/**
 * How to start this process again with the tunables, or null when it should run as it is: not
 * Linux, not the server (a backup or a doctor run is short), already tuned (by us or by the
 * operator: a tunable they set keeps their value, the others are added), or no execve.
 */
export function tunedStart(p: ProcessFacts): { file: string; args: string[]; env: NodeJS.ProcessEnv } | null {
  if (p.platform !== 'linux' || !p.canExec || p.electron || p.env[TUNED_MARK]) return null;
  const tunables = p.env.GLIBC_TUNABLES ?? '';
  const set = new Set(tunables.split(':').map((t) => t.split('=')[0]));
  const missing = MALLOC_TUNABLES.filter((t) => !set.has(t.split('=')[0]));
  if (missing.length === 0) return null;
  const userArgs = p.argv.slice(2);
  if (!startsServer(userArgs)) return null;
  const args = p.singleBinary ? [p.argv[0], ...userArgs] : [p.argv[0], ...p.execArgv, p.argv[1], ...userArgs];
  return {
    file: p.execPath,
    args,
    env: {
      ...p.env,
      GLIBC_TUNABLES: [...(tunables ? [tunables] : []), ...missing].join(':'),
      [TUNED_MARK]: '1',
    },
  };
}

/** Starts this process again with the tunables when tunedStart says so; returns only when not. */
export function startTuned(): void {
  const start = tunedStart({
    platform: process.platform,
    env: process.env,
    execPath: process.execPath,
    execArgv: process.execArgv,
    argv: process.argv,
    singleBinary: isSingleBinary(),
    electron: Boolean(process.versions.electron),
    canExec: typeof process.execve === 'function',
  });
  if (!start) return;
  try {
    process.execve?.(start.file, start.args, start.env);
  } catch (err) {
    // the server runs untuned rather than not at all
    console.error(`could not apply GLIBC_TUNABLES=${MALLOC_TUNABLE}: ${(err as Error).message}`);
  }
}
