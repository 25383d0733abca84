import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
