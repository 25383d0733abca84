// dist/server/main.cjs is a loader that runs the bundle through a V8 code cache (build.mjs,
// writeServerLoader): a serving process writes the cache, and the cache fits the bundle.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';

const built = resolve('dist/server');
// A copy of the bundle of its own, beside the real one (so the app's packages and the web build
// resolve as they do from dist/server): other test files start the built server at the same time,
// some with the server's V8 flags, and a cache one of them wrote first would not be this test's.
const dir = existsSync(built) ? mkdtempSync(join(resolve('dist'), 'server-loader-test-')) : built;
if (dir !== built) cpSync(built, dir, { recursive: true, filter: (src) => !src.endsWith('.cache') });
const data = mkdtempSync(join(tmpdir(), 'taskreward-loader-'));
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(data, { recursive: true, force: true });
  if (dir !== built) rmSync(dir, { recursive: true, force: true });
});

const caches = () => readdirSync(dir).filter((n) => /^server\.[0-9a-f]{16}\.[0-9a-f]{8}\.cache$/.test(n));

describe.skipIf(!existsSync(join(dir, 'server.cjs')))('the server loader', () => {
  it('names the cache by the bundle and the Node flags, writes it while serving, and the cache fits the bundle', async () => {
    const loader = readFileSync(join(dir, 'main.cjs'), 'utf8');
    // the loader reads the bundle as Latin-1: any other character would be read as another one
    expect(readFileSync(join(dir, 'server.cjs')).every((byte) => byte < 0x80)).toBe(true);
    const bundleHash = /server\.([0-9a-f]{16})\./.exec(loader)?.[1];
    expect(bundleHash).toBeDefined();
    child = spawn(process.execPath, [join(dir, 'main.cjs'), 'serve', '--port', '0', '--data', data], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 20_000;
    while (caches().length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const [name] = caches();
    expect(name?.startsWith(`server.${bundleHash}.`)).toBe(true);
    expect(caches()).toHaveLength(1);
    const source = Module.wrap(readFileSync(join(dir, 'server.cjs'), 'utf8'));
    const script = new vm.Script(source, {
      filename: join(dir, 'server.cjs'),
      cachedData: readFileSync(join(dir, name ?? '')),
    });
    expect(script.cachedDataRejected).toBe(false);
    child.kill('SIGTERM');
    await new Promise((r) => child?.once('exit', r));
  });

  it("a short command under other flags keeps a cache of its own: the server's stays", async () => {
    const before = caches();
    expect(before).toHaveLength(1);
    // stops long before the three seconds, so the cache is written as it stops
    const run = spawnSync(
      process.execPath,
      ['--stack-size=2000', join(dir, 'main.cjs'), 'migrate', '--data', data],
      {
        stdio: 'ignore',
      },
    );
    expect(run.status).toBe(0);
    const after = caches();
    expect(after).toHaveLength(2);
    expect(after).toEqual(expect.arrayContaining(before));
  });
});

// The process that only starts itself again with glibc's tunables must not read and compile the
// whole bundle first: the loader runs the restart before it. A stand-in bundle records whether
// it ran tuned; were the restart left to the bundle (as before), it would run untuned once.
describe.skipIf(process.platform !== 'linux' || !existsSync(join(built, 'tuned.cjs')))(
  "the loader's malloc restart",
  () => {
    it('happens before the bundle is read', () => {
      const stand = mkdtempSync(join(resolve('dist'), 'server-loader-tuned-'));
      try {
        cpSync(join(built, 'main.cjs'), join(stand, 'main.cjs'));
        cpSync(join(built, 'tuned.cjs'), join(stand, 'tuned.cjs'));
        const marks = join(stand, 'marks.txt');
        writeFileSync(
          join(stand, 'server.cjs'),
          `require('node:fs').appendFileSync(${JSON.stringify(marks)}, (process.env.TASKREWARD_MALLOC_TUNED ? 'tuned ' : 'untuned ') + (process.env.GLIBC_TUNABLES ?? '') + '\\n');`,
        );
        const env = { ...process.env };
        delete env.TASKREWARD_MALLOC_TUNED;
        delete env.GLIBC_TUNABLES;
        const run = spawnSync(process.execPath, [join(stand, 'main.cjs'), 'serve'], { env, stdio: 'ignore' });
        expect(run.status).toBe(0);
        const lines = readFileSync(marks, 'utf8').trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain('tuned glibc.malloc.mmap_threshold=131072');
        expect(lines[0]?.startsWith('untuned')).toBe(false);
      } finally {
        rmSync(stand, { recursive: true, force: true });
      }
    });
  },
);
