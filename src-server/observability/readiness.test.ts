import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `serve` as operators run it: the built bundle in a child process of its own process group,
// stopped by a signal to the group as a process manager or a terminal sends it.
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
let scratch: string;
beforeAll(() => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], { cwd: root });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  scratch = mkdtempSync(join(tmpdir(), 'taskreward-ready-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Served {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output(): string;
}

async function serve(env: Record<string, string>): Promise<Served> {
  const data = mkdtempSync(join(scratch, 'data-'));
  const child = spawn(
    process.execPath,
    [join(root, 'dist/server/main.cjs'), 'serve', '--port', '0', '--data', data],
    {
      env: { ...process.env, LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const end = Date.now() + 30_000;
  let url: string | undefined;
  while (!url) {
    url = /listening on (http:\/\/[^\s"]+)/.exec(output)?.[1];
    if (child.exitCode !== null || Date.now() > end) throw new Error(`no "listening on": ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url, exited, output: () => output };
}

function stopGroup(s: Served, signal: NodeJS.Signals = 'SIGTERM') {
  if (s.child.pid && s.child.exitCode === null) process.kill(-s.child.pid, signal);
}

async function readyz(
  url: string,
): Promise<{ status: number; body: { status: string; failing?: string[] } }> {
  let res: Response;
  try {
    res = await fetch(`${url}/readyz`);
  } catch (err) {
    // a kept-alive socket the server closed for idling while the test stopped or started
    // PostgreSQL (seconds), picked up again at that moment: the probe asks again on a new one,
    // as a load balancer's next probe would
    if ((err as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw err;
    res = await fetch(`${url}/readyz`);
  }
  return { status: res.status, body: await res.json() };
}

/** A request whose body has not all arrived: the server holds it in flight until `finish`. */
function slowRequest(url: string) {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
  const socket = connect(Number(port), hostname);
  let reply = '';
  socket.on('data', (d) => {
    reply += d.toString();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.write(
    `POST /api/auth/login HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  return {
    finish: () => socket.write(body.slice(10)),
    answer: async () => {
      await closed;
      return reply;
    },
  };
}

describe('readiness during a stop', () => {
  it('answers 503 from the first signal to the group while a request under way finishes, then exits cleanly', async () => {
    const s = await serve({ STOP_DRAIN_SECONDS: '1.5' });
    try {
      expect(await readyz(s.url)).toEqual({ status: 200, body: { status: 'ready' } });
      const slow = slowRequest(s.url);
      await new Promise((r) => setTimeout(r, 200));
      stopGroup(s);
      await expect.poll(() => s.output()).toContain('SIGTERM: stopping');
      const during = await readyz(s.url);
      expect(during.status).toBe(503);
      expect(during.body.failing).toEqual(['stopping']);
      // the health probe still says the process runs
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      // past the drain: no new connections, but the request under way gets its answer
      await new Promise((r) => setTimeout(r, 1_800));
      await expect(fetch(`${s.url}/readyz`)).rejects.toThrow();
      slow.finish();
      expect(await slow.answer()).toMatch(/^HTTP\/1\.1 401 /);
      expect(await s.exited).toBe(0);
      const lines = s
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      expect(lines.find((l) => l.route === '/readyz' && l.status === 503)).toBeTruthy();
      expect(lines.find((l) => l.route === '/api/auth/login' && l.status === 401)).toBeTruthy();
    } finally {
      stopGroup(s, 'SIGKILL');
    }
  });
});

// A PostgreSQL of the test's own, made and stopped here: the shared one the other tests use
// must never be stopped.
const pgBin = existsSync('/usr/lib/postgresql')
  ? readdirSync('/usr/lib/postgresql')
      .sort()
      .map((v) => `/usr/lib/postgresql/${v}/bin`)
      .at(-1)
  : undefined;

function asPostgres(command: string) {
  const isRoot = process.getuid?.() === 0;
  return isRoot
    ? execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { stdio: 'pipe' })
    : execFileSync('sh', ['-c', command], { stdio: 'pipe' });
}

describe.skipIf(!pgBin)('readiness on PostgreSQL', () => {
  it('answers 503 naming the database while PostgreSQL is stopped, and 200 again once it is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'taskreward-pg-ready-'));
    const port = 56_000 + Math.floor(Math.random() * 2_000);
    const pgctl = (what: string) =>
      asPostgres(
        `${pgBin}/pg_ctl -D ${dir}/data -l ${dir}/log -w ${what === 'start' ? `-o '-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off'` : '-m immediate'} ${what}`,
      );
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
    asPostgres(`${pgBin}/initdb -D ${dir}/data -U postgres --auth=trust -E UTF8 --locale=C.UTF-8`);
    pgctl('start');
    let s: Served | null = null;
    try {
      s = await serve({
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
        TOKEN_SECRET: 'a-shared-secret-of-at-least-thirty-two-bytes',
        NODE_NAME: 'ready-node',
      });
      expect(await readyz(s.url)).toEqual({ status: 200, body: { status: 'ready' } });
      pgctl('stop');
      const down = await readyz(s.url);
      expect(down.status).toBe(503);
      expect(down.body.failing).toEqual(['database']);
      // the process itself is fine: a restart would not help
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      pgctl('start');
      await expect.poll(async () => (await readyz(s!.url)).status, { timeout: 15_000 }).toBe(200);
      stopGroup(s);
      expect(await s.exited).toBe(0);
    } finally {
      if (s) stopGroup(s, 'SIGKILL');
      try {
        pgctl('stop');
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
