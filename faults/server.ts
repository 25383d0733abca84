// The real built server (dist/server/main.cjs) as a child process over a data folder that
// outlives it: started, killed with SIGKILL, restarted on the same folder, and checked by
// the real `doctor` command. Shared by the fault-injection suites and the benchmarks.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import NODE_FLAGS from '../src-server/node-flags.json';

export const SERVER_ENTRY = resolve('dist/server/main.cjs');
export const ADMIN = { email: 'admin@faults.test', password: 'admin-pass-1', name: 'Admin' };

export interface ServerProcess {
  url: string;
  dataDir: string;
  pid: number;
  child: ChildProcess;
  /** Everything the process printed so far. */
  log(): string;
  /** Peak resident set size so far (VmHWM from /proc), in bytes; 0 where /proc is missing. */
  peakRss(): number;
  /** SIGTERM and wait for the exit (a clean stop). */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit (a crash: no cleanup of any kind runs). */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** Reuse a data folder (a restart after a kill); a fresh temp folder otherwise. */
  dataDir?: string;
  /** A fixed port keeps the URL the same across restarts; 0 (any free port) by default. */
  port?: number;
  env?: Record<string, string>;
  /** The command to run instead of `node <server flags> dist/server/main.cjs serve` (the single binary). */
  command?: { file: string; args: string[] };
  startTimeoutMs?: number;
  /**
   * The server leads a process group of its own, and `kill` sends SIGKILL to the whole group:
   * nothing it started (a child, a worker) survives to finish its work.
   */
  group?: boolean;
}

export function freshDataDir(prefix = 'taskreward-faults-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A server's output is kept whole up to OUTPUT_KEPT characters; past that, its first HEAD_KEPT (the
 * start) and its latest half. The server logs a line per request, and a bench's server answers
 * millions: their text outgrew the longest string V8 makes (the bench stopped with "Invalid
 * string length" once the reads got fast enough).
 */
const OUTPUT_KEPT = 64 * 1024 * 1024;
const HEAD_KEPT = 1024 * 1024;

export function keptOutput(output: string): string {
  if (output.length <= OUTPUT_KEPT) return output;
  return `${output.slice(0, HEAD_KEPT)}\n[... server output cut ...]\n${output.slice(-OUTPUT_KEPT / 2)}`;
}

/**
 * Servers still running when this process exits: stopped with it, so a bench or a test that
 * dies (an uncaught error in a handler) leaves no server holding its data folder.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts the server and resolves once it printed "listening on <url>". */
export async function startServerProcess(options: StartOptions = {}): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? freshDataDir();
  const command = options.command ?? {
    file: process.execPath,
    args: [...NODE_FLAGS.server, SERVER_ENTRY, 'serve'],
  };
  const child = spawn(command.file, command.args, {
    env: {
      ...process.env,
      PORT: String(options.port ?? 0),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group === true,
  });
  let output = '';
  const add = (c: Buffer) => {
    output = keptOutput(output + c.toString());
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  running.add(child);
  const exited = new Promise<void>((r) =>
    child.once('exit', () => {
      running.delete(child);
      r();
    }),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start:\n${output}`)),
      options.startTimeoutMs ?? 30_000,
    );
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    }, 5);
    child.once('exit', (code, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      if (options.group && child.pid) process.kill(-child.pid, signal);
      else child.kill(signal);
    }
    await exited;
  };
  return {
    url,
    dataDir,
    pid: child.pid ?? 0,
    child,
    log: () => output,
    peakRss() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = /VmHWM:\s+(\d+) kB/.exec(status);
        return kb ? Number(kb[1]) * 1024 : 0;
      } catch {
        return 0;
      }
    },
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}

/** Runs `doctor` on a data folder (no server may be running on it); its exit code and output. */
export function runDoctor(dataDir: string): { status: number; output: string } {
  const res = spawnSync(process.execPath, [SERVER_ENTRY, 'doctor'], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { status: res.status ?? -1, output: `${res.stdout}${res.stderr}` };
}
