import { spawn } from 'node:child_process';
import { isSingleBinary } from './is-single-binary';

/**
 * How to start this very program with other arguments: the single binary is its own
 * executable; otherwise Node with the same flags and script (dist/server/main.cjs).
 */
export function selfCommand(args: string[]): { command: string; args: string[] } {
  if (isSingleBinary()) return { command: process.execPath, args };
  const script = process.argv[1];
  if (!script) throw new Error('cannot tell which script this process runs');
  return { command: process.execPath, args: [...process.execArgv, script, ...args] };
}

/**
 * Runs one command of this program in a child process; rejects with its output when it fails.
 * Aborting `signal` sends the child SIGTERM; the promise still settles only once the child is gone.
 */
export function runSelf(args: string[], options: { signal?: AbortSignal } = {}): Promise<void> {
  const { command, args: argv } = selfCommand(args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = () => child.kill('SIGTERM');
    if (options.signal?.aborted) stop();
    else options.signal?.addEventListener('abort', stop, { once: true });
    child.on('close', () => options.signal?.removeEventListener('abort', stop));
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${args[0]} exited with ${code}: ${output.trim().slice(-500)}`));
    });
  });
}
