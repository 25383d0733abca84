import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, REPO_ROOT, startWithNpm, until } from '../testing/npm-server';

// What a process manager or a container runtime does to stop the app: SIGTERM to the process it
// started, which is npm when the README's command runs it. The server must get the signal
// (the scripts `exec` into it), close, and remove its lock.
let scratch: string;
beforeAll(() => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], {
    cwd: REPO_ROOT,
  });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  scratch = mkdtempSync(join(tmpdir(), 'taskreward-stop-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Opens a keep-alive connection with one answered request on it, and leaves it open. */
function keepAliveConnection(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/settings`, { headers: { Connection: 'keep-alive' } }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each([
  ['npm start', (data: string) => ['start', '--', '--data', data]],
  ['npm run cli -- serve', (data: string) => ['run', 'cli', '--', 'serve', '--data', data]],
])('SIGTERM to %s', (label, args) => {
  it('reaches the server, which stops and removes its lock within 10 s; npm exits with it', async () => {
    const data = join(scratch, label.replaceAll(/\W+/g, '-'));
    const npm = startWithNpm(args(data), { PORT: '0', HOST: '127.0.0.1' });
    let server = 0;
    try {
      const url = await npm.listening;
      const lock = join(data, 'server.lock');
      server = Number(readFileSync(lock, 'utf8'));
      // the server is npm's own child, not a shell's: nothing stands between it and npm
      expect(server).not.toBe(npm.child.pid);
      const parent = spawnSync('ps', ['-o', 'ppid=', '-p', String(server)], { encoding: 'utf8' });
      expect(Number(parent.stdout.trim())).toBe(npm.child.pid);
      await keepAliveConnection(url);

      const sent = Date.now();
      npm.child.kill('SIGTERM');
      await until(() => !alive(server) && !existsSync(lock), 10_000, 'the server to stop and its lock to go');
      const took = Date.now() - sent;
      expect(took).toBeLessThan(10_000);
      expect(await npm.exited).toBe(0);
      await expect(fetch(`${url}/api/settings`)).rejects.toThrow();
      console.log(`${label}: stopped ${took} ms after SIGTERM`);
    } finally {
      // a failed run must not leave a server behind
      if (npm.child.exitCode === null && npm.child.signalCode === null) npm.child.kill('SIGKILL');
      if (server > 0 && alive(server)) process.kill(server, 'SIGKILL');
    }
  });
});

/**
 * What a stop must not leave in the data folder: the lock, SQLite's WAL and shared memory (the
 * database not closed), a half-written archive.
 */
function leftovers(data: string): string[] {
  const left = ['server.lock', 'taskreward.db-wal', 'taskreward.db-shm'].filter((n) =>
    existsSync(join(data, n)),
  );
  const backups = join(data, 'backups');
  if (existsSync(backups)) left.push(...readdirSync(backups).filter((n) => n.includes('.partial-')));
  const tmp = join(data, 'tmp');
  if (existsSync(tmp)) left.push(...readdirSync(tmp).map((n) => `tmp/${n}`));
  return left;
}

/** A process-group signal twice, 50 ms apart: a terminal's or a process manager's, then npm's. */
async function signalGroupTwice(pgid: number, signal: NodeJS.Signals): Promise<void> {
  process.kill(-pgid, signal);
  await new Promise((r) => setTimeout(r, 50));
  try {
    process.kill(-pgid, signal);
  } catch (err) {
    // the whole group may be gone already
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/** The `start` script's own command under `sh -c`, in a process group of its own, as npm runs it. */
function startScript(data: string, env: Record<string, string> = {}) {
  const script = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts.start as string;
  const child = spawn('sh', ['-c', `${script} --data ${data}`], {
    cwd: REPO_ROOT,
    // the Node running the tests first on PATH, as npm would put its own
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return { child, exited, output: () => output };
}

/** Kills what is left of a process group after a failed run. */
function killGroup(pgid: number | undefined): void {
  if (!pgid) return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone
  }
}

describe.each(['SIGTERM', 'SIGINT'] as const)('%s twice to the whole process group', (signal) => {
  it('of `npm start`: the server stops once, removes its lock and closes the database', async () => {
    const data = join(scratch, `group-npm-${signal}`);
    const npm = startWithNpm(['start', '--', '--data', data], { PORT: '0', HOST: '127.0.0.1' }, 60_000, {
      ownProcessGroup: true,
    });
    const pgid = npm.child.pid;
    try {
      const url = await npm.listening;
      const server = Number(readFileSync(join(data, 'server.lock'), 'utf8'));
      await keepAliveConnection(url);
      await signalGroupTwice(Number(pgid), signal);
      await until(() => !alive(server), 10_000, 'the server to stop');
      await npm.exited;
      expect(leftovers(data)).toEqual([]);
      // the database is whole and opens again
      expect(existsSync(join(data, 'taskreward.db'))).toBe(true);
    } finally {
      killGroup(pgid);
    }
  });

  it('during the start, as soon as the lock is taken: the start gives up cleanly', async () => {
    const data = join(scratch, `group-start-${signal}`);
    mkdirSync(data, { recursive: true });
    // the moment the server writes its lock, before it has opened (and migrated) the database
    const locked = new Promise<void>((resolve) => {
      const watcher = watch(data, (_event, name) => {
        if (name === 'server.lock') {
          watcher.close();
          resolve();
        }
      });
    });
    const run = startScript(data);
    try {
      await locked;
      await signalGroupTwice(Number(run.child.pid), signal);
      const code = await run.exited;
      expect(code, run.output()).toBe(0);
      expect(run.output()).not.toContain('listening on');
      expect(leftovers(data)).toEqual([]);
    } finally {
      killGroup(run.child.pid);
    }
  });

  it('while a scheduled backup runs: the backup is given up, nothing half-written is left', async () => {
    const data = join(scratch, `group-backup-${signal}`);
    // a backup every 0.36 s, the first one 0.36 s after the start
    const run = startScript(data, { BACKUP_INTERVAL_HOURS: '0.0001', BACKUP_KEEP: '2' });
    try {
      await until(() => run.output().includes('listening on'), 30_000, 'the server to listen');
      // the backup's staging folder: the backup child is copying now
      await new Promise<void>((resolve) => {
        const watcher = watch(join(data, 'tmp'), (_event, name) => {
          if (name?.startsWith('backup-')) {
            watcher.close();
            resolve();
          }
        });
      });
      await signalGroupTwice(Number(run.child.pid), signal);
      const code = await run.exited;
      expect(code, run.output()).toBe(0);
      // no process of the group is left (the backup child included)
      await until(
        () => {
          try {
            process.kill(-Number(run.child.pid), 0);
            return false;
          } catch {
            return true;
          }
        },
        10_000,
        'the process group to end',
      );
      expect(leftovers(data)).toEqual([]);
    } finally {
      killGroup(run.child.pid);
    }
  });
});
