import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import NODE_FLAGS from '../src-server/node-flags.json';

/** How to run the TaskReward program: the single binary, or Node with the server bundle. */
export interface ServerProgram {
  command: string;
  args: string[];
  /** Extra environment for it (the bundle needs to be told where the built web app is). */
  env?: Record<string, string>;
}

/**
 * Picks the server program: TASKREWARD_SERVER_BINARY when set; inside a packaged app the
 * single binary shipped in resources/server; in development the built binary when there is
 * one, else `node dist/server/main.cjs` (Electron's own Node would need addons built for it).
 */
export function resolveServerProgram(options: {
  env: NodeJS.ProcessEnv;
  packaged: boolean;
  resourcesPath: string;
  appRoot: string;
  platform?: NodeJS.Platform;
}): ServerProgram {
  const exe = (options.platform ?? process.platform) === 'win32' ? 'taskreward.exe' : 'taskreward';
  if (options.env.TASKREWARD_SERVER_BINARY)
    return { command: options.env.TASKREWARD_SERVER_BINARY, args: [] };
  if (options.packaged) return { command: join(options.resourcesPath, 'server', exe), args: [] };
  const binary = join(options.appRoot, 'dist', 'binary', exe);
  if (existsSync(binary)) return { command: binary, args: [] };
  return {
    command: options.env.TASKREWARD_NODE || 'node',
    args: [...NODE_FLAGS.server, join(options.appRoot, 'dist', 'server', 'main.cjs')],
    env: { WEB_DIR: join(options.appRoot, 'dist', 'web') },
  };
}

/** The address in the server's `listening on http://HOST:PORT` line, or null for any other line. */
export function parseListening(line: string): { url: string; host: string; port: number } | null {
  const m = /listening on (http:\/\/(\[[0-9a-f:.]+\]|[\w.-]+):(\d{1,5}))\b/i.exec(line);
  if (!m) return null;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return null;
  return { url: m[1], host: m[2], port };
}

/**
 * The first-run setup link the server prints before `listening on` while it has no admin
 * (`…create the first one at http://HOST:PORT/setup?token=…`), when it is on `origin`; else null.
 */
export function parseSetupLink(output: string, origin: string): string | null {
  const m = /create the first one at (http:\/\/\S+\/setup\?token=[\w-]+)/.exec(output);
  if (!m) return null;
  return new URL(m[1]).origin === origin ? m[1] : null;
}

/** A running child server. */
export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  /** The one-time link that creates the first admin, when the server started without one. */
  setupUrl: string | null;
  /** Resolves with the exit code (or the signal's name) once the child has exited. */
  exited: Promise<number | string | null>;
  /** SIGTERM, then SIGKILL when it has not exited after `timeoutMs`; resolves when it has exited. */
  stop(timeoutMs?: number): Promise<number | string | null>;
}

function exitOf(child: ChildProcess): Promise<number | string | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode);
    else child.once('exit', (code, signal) => resolve(code ?? signal));
  });
}

/**
 * Starts `serve` on 127.0.0.1 and a free port over `dataDir`, and resolves once the server
 * says it listens. Rejects with the server's own output when it exits first or stays silent
 * for `timeoutMs`.
 */
export function startServer(options: {
  program: ServerProgram;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  onOutput?: (text: string) => void;
}): Promise<ServerProcess> {
  const { program, dataDir } = options;
  const args = [...program.args, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', dataDir];
  const child = spawn(program.command, args, {
    env: { ...(options.env ?? process.env), ...program.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const exited = exitOf(child);
  let output = '';
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${message}${output.trim() ? `:\n${output.trim().slice(-2000)}` : ''}`));
    };
    const timer = setTimeout(() => fail('the server did not start in time'), options.timeoutMs ?? 30_000);
    const seen = (chunk: Buffer) => {
      const text = chunk.toString();
      options.onOutput?.(text);
      output += text;
      const listening = parseListening(output);
      if (!listening || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        ...listening,
        setupUrl: parseSetupLink(output, listening.url),
        pid: child.pid ?? 0,
        exited,
        stop: (timeoutMs = 5_000) => stopChild(child, exited, timeoutMs),
      });
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('error', (err) => fail(`the server could not be started (${err.message})`));
    void exited.then((code) => fail(`the server exited (${code}) before it listened`));
  });
}

async function stopChild(
  child: ChildProcess,
  exited: Promise<number | string | null>,
  timeoutMs: number,
): Promise<number | string | null> {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Runs one CLI command of the program (backup, restore, doctor) and collects its output. */
export function runCommand(
  program: ServerProgram,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program.command, [...program.args, ...args], {
      env: { ...env, ...program.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output: output.trim() }));
  });
}

/** Anything that says when it closes, like an Electron BrowserWindow. */
export interface Closable {
  once(event: 'closed', listener: () => void): unknown;
}

/** Stops the server when the window closes; `after` runs once it has exited (quit the app). */
export function stopWithWindow(
  window: Closable,
  server: () => ServerProcess | null,
  after?: (code: number | string | null) => void,
): void {
  window.once('closed', () => {
    const running = server();
    if (!running) {
      after?.(null);
      return;
    }
    void running.stop().then((code) => after?.(code));
  });
}
