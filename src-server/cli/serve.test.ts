import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../testing/s3-server';

// `serve` as operators run it: the built bundle in a child process.
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
let scratch: string;
beforeAll(() => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], { cwd: root });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  scratch = mkdtempSync(join(tmpdir(), 'taskreward-serve-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function serve(data: string, env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    [join(root, 'dist/server/main.cjs'), 'serve', '--port', '0', '--data', data],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const collect = (d: Buffer) => {
    output += d.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, output: () => output };
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function stop(child: ChildProcess) {
  child.kill('SIGTERM');
}

describe('serve', () => {
  it('holds the data folder: a second server on it is refused, the lock goes at a clean stop', async () => {
    const data = join(scratch, 'locked');
    const first = serve(data);
    try {
      await until(() => first.output().includes('listening on'), 20_000);
      expect(readFileSync(join(data, 'server.lock'), 'utf8').trim()).toBe(String(first.child.pid));
      // an upload the first server is receiving: the refused second one must not clear it
      writeFileSync(join(data, 'tmp', 'upload.part'), 'half a photo');
      const second = serve(data);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`in use by a running server (pid ${first.child.pid})`);
      expect(existsSync(join(data, 'tmp', 'upload.part'))).toBe(true);
    } finally {
      stop(first.child);
    }
    expect(await first.exited).toBe(0);
    expect(existsSync(join(data, 'server.lock'))).toBe(false);
  });

  it('makes scheduled backups in the backups folder and keeps the newest N', async () => {
    const data = join(scratch, 'scheduled');
    // every 1.8 s, keeping 2
    const server = serve(data, { BACKUP_INTERVAL_HOURS: '0.0005', BACKUP_KEEP: '2' });
    try {
      await until(() => (server.output().match(/scheduled backup written/g) ?? []).length >= 3, 30_000);
    } finally {
      stop(server.child);
    }
    await server.exited;
    expect(server.output()).toMatch(/backing up every 0\.0005 h into .*backups, keeping 2/);
    const kept = readdirSync(join(data, 'backups'));
    expect(kept).toHaveLength(2);
    for (const name of kept) expect(name).toMatch(/^taskreward-\d{8}-\d{6}Z\.tar\.gz$/);
  });

  it('keeps no backup schedule when the files are in an S3 bucket, and says why', async () => {
    const s3 = await startS3Server();
    const data = join(scratch, 's3');
    const server = serve(data, { ...s3.env, BACKUP_INTERVAL_HOURS: '0.0005' });
    try {
      await until(() => server.output().includes('listening on'), 20_000);
      await new Promise((r) => setTimeout(r, 2500));
    } finally {
      stop(server.child);
      await server.exited;
      await s3.close();
    }
    expect(server.output()).toContain(
      `not backing up on a schedule: the files are in S3 bucket ${s3.bucket} at ${s3.endpoint}`,
    );
    expect(server.output()).not.toContain('scheduled backup');
    expect(existsSync(join(data, 'backups'))).toBe(false);
  });
});

describe('serve and its memory budget', () => {
  /** The reducer's pauses so far, from the server's own /metrics. */
  async function reductions(out: string): Promise<number> {
    const url = /listening on (http:\/\/[^\s"]+)/.exec(out)![1];
    const res = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer scrape-token' } });
    expect(res.status).toBe(200);
    const text = await res.text();
    return Number(/^taskreward_memory_reduce_pause_seconds_count (\d+)$/m.exec(text)?.[1]);
  }

  it.each([
    ['1', 'hands pages back while over MEMORY_BUDGET_MB', (n: number) => expect(n).toBeGreaterThanOrEqual(1)],
    ['0', 'never with MEMORY_BUDGET_MB=0', (n: number) => expect(n).toBe(0)],
  ])('MEMORY_BUDGET_MB=%s: %s, and still answers', async (budget, _what, check) => {
    const server = serve(join(scratch, `budget-${budget}`), {
      MEMORY_BUDGET_MB: budget,
      METRICS_TOKEN: 'scrape-token',
    });
    try {
      await until(() => server.output().includes('listening on'), 20_000);
      // the first look at the RSS comes a second after the start
      await new Promise((r) => setTimeout(r, 1_500));
      check(await reductions(server.output()));
    } finally {
      stop(server.child);
    }
    expect(await server.exited).toBe(0);
  });

  it('refuses a budget that is not a whole number of megabytes', async () => {
    const server = serve(join(scratch, 'budget-bad'), { MEMORY_BUDGET_MB: '150MB' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(
      'MEMORY_BUDGET_MB must be a whole number of megabytes (0: off), not "150MB"',
    );
  });
});

describe('serve as one of many nodes', () => {
  const cluster = { CLUSTER: '1', TOKEN_SECRET: 'a-secret-every-test-node-shares-0123456789' };

  it('refuses to start without TOKEN_SECRET', async () => {
    const server = serve(join(scratch, 'no-secret'), { CLUSTER: '1', TOKEN_SECRET: '' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('TOKEN_SECRET is required when DATABASE_URL is set');
  });

  it('schedules no backup of its own and prints a setup link for any node', async () => {
    const data = join(scratch, 'node');
    // every 1.8 s if it were one server
    const server = serve(data, { ...cluster, BACKUP_INTERVAL_HOURS: '0.0005', ADMIN_EMAIL: '' });
    try {
      await until(() => server.output().includes('listening on'), 20_000);
      await new Promise((r) => setTimeout(r, 2_500));
    } finally {
      stop(server.child);
    }
    expect(await server.exited).toBe(0);
    const out = server.output();
    expect(out).toContain('BACKUP_INTERVAL_HOURS is ignored when DATABASE_URL is set');
    expect(out).not.toMatch(/backing up every|scheduled backup written/);
    expect(existsSync(join(data, 'backups'))).toBe(false);
    expect(out).toMatch(/the link works once, on any node, until an admin exists/);
  });
});
