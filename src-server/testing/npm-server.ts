import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (where package.json and its scripts are). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** A server started through npm, as the README tells operators to start it. */
export interface NpmServer {
  /** The npm process (the server is its child: the scripts `exec` into it). */
  child: ChildProcess;
  /** Everything npm and the server printed so far. */
  output(): string;
  /** The `listening on` URL; rejects when the process ends first or after `timeoutMs`. */
  listening: Promise<string>;
  /** The exit code, or the signal's name. */
  exited: Promise<number | string | null>;
}

/**
 * Runs `npm <args>` in the repository (`start`, or `run cli -- serve …`) with `env` over a
 * clean environment: no ADMIN_EMAIL/ADMIN_PASSWORD, PORT, HOST or DATA_DIR from the caller's,
 * and the Node running the tests first on PATH so npm and the server run under it.
 * `ownProcessGroup` starts npm as the leader of a new process group (its pid is the group's id).
 */
export function startWithNpm(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  options: { ownProcessGroup?: boolean } = {},
): NpmServer {
  const inherited = { ...process.env };
  for (const name of ['ADMIN_EMAIL', 'ADMIN_PASSWORD', 'PORT', 'HOST', 'DATA_DIR', 'TOKEN_SECRET'])
    delete inherited[name];
  const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
    cwd: REPO_ROOT,
    env: {
      ...inherited,
      PATH: `${dirname(process.execPath)}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // a process group of its own (npm and the server), as a terminal or a process manager starts
    // it: a signal to the group reaches both
    detached: options.ownProcessGroup === true,
  });
  let output = '';
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line:\n${output}`)), timeoutMs);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm ${args.join(' ')} exited (${code}) before listening:\n${output}`));
    });
  });
  listening.catch(() => {});
  return { child, output: () => output, listening, exited };
}

/** Whether a process with this id is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}

/** Polls `check` every 50 ms until it holds; throws after `ms`. */
export async function until(check: () => boolean, ms: number, what = 'the condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
