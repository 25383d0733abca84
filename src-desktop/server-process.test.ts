import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalServer } from './local-server';
import {
  parseListening,
  parseSetupLink,
  resolveServerProgram,
  runCommand,
  type ServerProgram,
  startServer,
  stopWithWindow,
} from './server-process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The real server bundle, run by this Node: what the desktop app runs in development. */
const bundle: ServerProgram = { command: process.execPath, args: [join(root, 'dist/server/main.cjs')] };
let scratch: string;
beforeAll(() => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], { cwd: root });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  scratch = mkdtempSync(join(tmpdir(), 'taskreward-shell-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const node = (code: string): ServerProgram => ({ command: process.execPath, args: ['-e', code] });

describe('parseListening', () => {
  it.each([
    [
      'listening on http://127.0.0.1:43817',
      { url: 'http://127.0.0.1:43817', host: '127.0.0.1', port: 43817 },
    ],
    ['x\nlistening on http://[::1]:3000\n', { url: 'http://[::1]:3000', host: '[::1]', port: 3000 }],
    [
      'listening on http://localhost:8080 (dev)',
      { url: 'http://localhost:8080', host: 'localhost', port: 8080 },
    ],
    ['listening on http://127.0.0.1:0', null],
    ['listening on http://127.0.0.1:99999', null],
    ['database is up to date', null],
    ['listening on http://127.0.0.1:', null],
  ])('%j -> %j', (line, expected) => {
    expect(parseListening(line)).toEqual(expected);
  });
});

describe('parseSetupLink', () => {
  const origin = 'http://127.0.0.1:43817';
  const line = (url: string) =>
    `no admin account yet: create the first one at ${url} (the link works once, until the server stops)\n`;
  it.each([
    [line(`${origin}/setup?token=abc_DEF-123`), `${origin}/setup?token=abc_DEF-123`],
    [`x\n${line(`${origin}/setup?token=t`)}listening on ${origin}\n`, `${origin}/setup?token=t`],
    [line('http://127.0.0.1:9999/setup?token=t'), null],
    [line('http://evil.example:43817/setup?token=t'), null],
    [`listening on ${origin}\n`, null],
  ])('%j -> %j', (output, expected) => {
    expect(parseSetupLink(output, origin)).toBe(expected);
  });
});

describe('resolveServerProgram', () => {
  const base = {
    resourcesPath: '/opt/TaskReward/resources',
    appRoot: '/nowhere',
    platform: 'linux' as const,
  };
  it('uses TASKREWARD_SERVER_BINARY when set', () => {
    const env = { TASKREWARD_SERVER_BINARY: '/usr/local/bin/taskreward' };
    expect(resolveServerProgram({ ...base, env, packaged: true })).toEqual({
      command: '/usr/local/bin/taskreward',
      args: [],
    });
  });
  it('runs the binary shipped in resources/server inside a packaged app', () => {
    expect(resolveServerProgram({ ...base, env: {}, packaged: true })).toEqual({
      command: join('/opt/TaskReward/resources', 'server', 'taskreward'),
      args: [],
    });
    expect(resolveServerProgram({ ...base, platform: 'win32', env: {}, packaged: true }).command).toMatch(
      /taskreward\.exe$/,
    );
  });
  it('falls back to Node and the server bundle in development when no binary was built', () => {
    expect(resolveServerProgram({ ...base, env: {}, packaged: false })).toEqual({
      command: 'node',
      args: [
        '--max-semi-space-size=4',
        '--initial-old-space-size=16',
        '--heap-growing-percent=20',
        join('/nowhere', 'dist', 'server', 'main.cjs'),
      ],
      env: { WEB_DIR: join('/nowhere', 'dist', 'web') },
    });
  });
});

describe('the child server', () => {
  it('starts on 127.0.0.1 and a free port, holds the data folder, and stops with the window', async () => {
    const data = join(scratch, 'window');
    const server = await startServer({ program: bundle, dataDir: data });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/api/settings`)).status).toBe(200);
    expect(readFileSync(join(data, 'server.lock'), 'utf8').trim()).toBe(String(server.pid));

    const window = new EventEmitter();
    const stopped = new Promise<number | string | null>((resolve) => {
      stopWithWindow(window, () => server, resolve);
    });
    window.emit('closed');
    expect(await stopped).toBe(0); // a clean exit on SIGTERM
    expect(existsSync(join(data, 'server.lock'))).toBe(false);
    await expect(fetch(`${server.url}/api/settings`)).rejects.toThrow();
  });

  it('kills a server that ignores SIGTERM after the timeout', async () => {
    const stubborn = node(
      "process.on('SIGTERM', () => {}); console.log('listening on http://127.0.0.1:45678'); setInterval(() => {}, 1000);",
    );
    const server = await startServer({ program: stubborn, dataDir: scratch });
    expect(server.port).toBe(45678);
    const started = Date.now();
    expect(await server.stop(300)).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects with the server output when it exits before listening', async () => {
    const failing = node("console.error('the data folder is in use by a running server'); process.exit(3);");
    await expect(startServer({ program: failing, dataDir: scratch })).rejects.toThrow(
      /exited \(3\) before it listened:\nthe data folder is in use/,
    );
  });

  it('rejects when the server stays silent', async () => {
    await expect(
      startServer({ program: node('setInterval(() => {}, 1000)'), dataDir: scratch, timeoutMs: 300 }),
    ).rejects.toThrow('did not start in time');
  });
});

describe('the backup and restore menus', () => {
  const login = async (url: string, email: string) =>
    (
      await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: 'secret-pass' }),
      })
    ).status;

  it('back up while serving; restore stops the server, swaps the data and starts it again', async () => {
    const data = join(scratch, 'menus');
    const local = new LocalServer(bundle, data);
    const admin = (email: string) =>
      runCommand(bundle, ['create-admin', '--email', email, '--password', 'secret-pass', '--data', data]);
    expect((await admin('first@example.test')).code).toBe(0);
    const url = await local.start();
    try {
      const archive = join(scratch, 'menu-backup.tar.gz');
      const backup = await local.backup(archive);
      expect(backup).toEqual({ ok: true, output: expect.stringContaining('backup written to') });
      // a write after the backup, made while the server runs
      expect((await admin('second@example.test')).code).toBe(0);
      expect(await login(url, 'second@example.test')).toBe(200);

      const restored = await local.restore(archive);
      expect(restored.ok).toBe(true);
      expect(local.running?.url).toBe(restored.url);
      expect(await login(restored.url, 'first@example.test')).toBe(200);
      expect(await login(restored.url, 'second@example.test')).toBe(401);

      const damaged = join(scratch, 'damaged.tar.gz');
      writeFileSync(damaged, readFileSync(archive).subarray(0, 200));
      const refused = await local.restore(damaged);
      expect(refused).toMatchObject({ ok: false, output: expect.stringContaining('refused:') });
      expect(await login(refused.url, 'first@example.test')).toBe(200);
    } finally {
      await local.stop();
    }
    expect(local.running).toBeNull();
  });
});
