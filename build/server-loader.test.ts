// dist/server/main.cjs is a loader that runs the bundle through a V8 code cache (build.mjs,
// writeServerLoader): a serving process writes the cache, and the cache fits the bundle.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

const caches = () => readdirSync(dir).filter((n) => /^server\.[0-9a-f]{16}\.cache$/.test(n));

describe.skipIf(!existsSync(join(dir, 'server.cjs')))('the server loader', () => {
  it('names the cache by the bundle, writes it while serving, and the cache fits the bundle', async () => {
    const loader = readFileSync(join(dir, 'main.cjs'), 'utf8');
    const name = /server\.([0-9a-f]{16})\.cache/.exec(loader)?.[0];
    expect(name).toBeDefined();
    child = spawn(process.execPath, [join(dir, 'main.cjs'), 'serve', '--port', '0', '--data', data], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 20_000;
    while (!existsSync(join(dir, name ?? '')) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(caches()).toEqual([name]);
    const source = Module.wrap(readFileSync(join(dir, 'server.cjs'), 'utf8'));
    const script = new vm.Script(source, {
      filename: join(dir, 'server.cjs'),
      cachedData: readFileSync(join(dir, name ?? '')),
    });
    expect(script.cachedDataRejected).toBe(false);
  });
});
