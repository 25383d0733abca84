// The README's two commands, `npm install && npm start`, in a fresh clone of this repository's
// HEAD (committed files only) on a machine whose Node is older than the project's, first on PATH:
// npm install gives npm's scripts the project's Node 24 (build/node-version.mjs), its native
// addons load under it, and npm start serves. Skipped, with the reason, where there is no older
// Node. About two minutes here (npm install from npm's cache), so it runs on its own:
// `npm run test:fresh-clone`, and as a step of `npm test`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { nodeCache } from './node-version.mjs';
import { cleanEnv, olderNode } from './older-node';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const old = olderNode();
if (!old)
  console.warn(
    "\nSKIPPED: no Node older than the project's on this machine to run `npm install && npm start` on.\n",
  );

let box: string;
let clone: string;
let env: NodeJS.ProcessEnv;
let server: ChildProcess | undefined;
beforeAll(() => {
  if (!old) return;
  box = mkdtempSync(join(tmpdir(), 'taskreward-clone-'));
  clone = join(box, 'taskreward');
  const git = spawnSync('git', ['clone', '--quiet', root, clone], { encoding: 'utf8' });
  if (git.status !== 0) throw new Error(`git clone failed: ${git.stderr}`);
  // the older Node (and its npm) first; nothing of the project's Node on PATH
  const path = (process.env.PATH ?? '')
    .split(':')
    .filter((d) => d && !d.includes('node_modules') && !d.startsWith(nodeCache()));
  env = cleanEnv({ PATH: [old.dir, ...path].join(':') });
  delete env.npm_config_nodedir;
});
afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    process.kill(-server.pid, 'SIGTERM');
    await new Promise((done) => server?.once('exit', done));
  }
  if (box) rmSync(box, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? done(address.port) : fail(new Error('no port')),
      );
    });
  });
}

describe.skipIf(!old)(`npm install && npm start with Node ${old?.version} first on PATH`, () => {
  it("npm install links the project's Node 24, under which the native addons load", () => {
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: clone,
      env,
      encoding: 'utf8',
    });
    expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
    expect(install.stderr).toMatch(
      new RegExp(`npm runs on Node\\.js v${old?.version} .* run Node\\.js v24\\.`),
    );
    const link = join(clone, 'node_modules', '.bin', 'node');
    expect(readlinkSync(link).startsWith(nodeCache())).toBe(true);
    const addons = spawnSync(
      link,
      [
        '-e',
        "for (const m of ['better-sqlite3', 'argon2', 'sharp']) require(m); console.log(process.version)",
      ],
      { cwd: clone, env, encoding: 'utf8' },
    );
    expect([addons.status, addons.stderr]).toEqual([0, '']);
    expect(addons.stdout).toMatch(/^v24\./);
  }, 600_000);

  it("npm start serves on the project's Node, which is npm's child itself (exec)", async () => {
    const port = await freePort();
    server = spawn('npm', ['start'], {
      cwd: clone,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    server.stdout?.on('data', (d) => (out += d));
    server.stderr?.on('data', (d) => (out += d));
    const deadline = Date.now() + 240_000;
    while (!out.includes('listening on') && server.exitCode === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(out).toContain(`listening on http://127.0.0.1:${port}`);
    const res = await fetch(`http://127.0.0.1:${port}/api/settings`);
    expect(res.status).toBe(200);
    // the server is the Node 24 from the cache, started by npm's shell with exec: npm's child
    const ps = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(server.pid)], { encoding: 'utf8' });
    expect(ps.stdout).toMatch(
      new RegExp(`${nodeCache()}/node-[\\w-]+-24\\.\\d+\\.\\d+/bin/node .*dist/server/main\\.cjs serve`),
    );
  }, 300_000);
});
