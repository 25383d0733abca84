import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { minimumNode, satisfies } from './node-version.mjs';

// An older Node than package.json's engines gets a message that says what to do, not a stack
// trace: from npm install (preinstall), the build and test scripts, and the built server.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs `args` with this Node pretending to be `version` (process.version and versions.node). */
function runAs(version: string, args: string[]) {
  const fake = `Object.defineProperty(process, 'version', { value: 'v${version}' });
Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${version}' } });`;
  const res = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(fake)}`, ...args],
    { cwd: root, encoding: 'utf8' },
  );
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

beforeAll(() => {
  const built = spawnSync(process.execPath, ['build/build.mjs', '--if-needed', '--quiet'], { cwd: root });
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
});

describe('the Node version check', () => {
  it('reads the minimum from package.json engines', () => {
    expect(minimumNode()).toEqual([24, 11, 0]);
    expect(minimumNode('>=22')).toEqual([22, 0, 0]);
    expect(() => minimumNode('^24')).toThrow(/">=X.Y"/);
  });

  it.each([
    ['v24.11.0', true],
    ['24.21.0', true],
    ['v26.0.0', true],
    ['v24.10.9', false],
    ['v22.14.0', false],
    ['v20.20.2', false],
  ])('takes %s: %s', (version, ok) => {
    expect(satisfies(version)).toBe(ok);
  });

  it('is the first thing the build and test scripts import', () => {
    for (const file of ['build/build.mjs', 'build/test.mjs']) {
      const first = /^import .*$/m.exec(readFileSync(join(root, file), 'utf8'))?.[0];
      expect(first, file).toMatch(/^import '\.\/require-node\.mjs';/);
    }
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.preinstall).toBe(
      'node build/node-version.mjs',
    );
  });

  it.each([
    ['the build script', ['build/build.mjs', '--if-needed']],
    ['the test script', ['build/test.mjs']],
  ])('stops %s on Node 20 with what to do', (_label, args) => {
    const run = runAs('20.20.2', args);
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'TaskReward needs Node.js 24.11 or newer (Node 24 LTS); this is Node.js v20.20.2',
    );
    expect(run.out).toContain('npm start, npm test, npm run cli');
    expect(run.out).toContain('. .ci/use-node.sh');
    expect(run.out).not.toMatch(/^\s+at /m);
  });

  it('stops the built server on Node 20 with a message', () => {
    const run = runAs('20.20.2', ['dist/server/main.cjs', '--version']);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(
      /^TaskReward needs Node\.js 24\.11\.0 or newer; this is Node\.js v20\.20\.2 \(.+\)\. See "Which Node" in README\.md\.\n$/,
    );
  });

  it('lets the built server run on this Node', () => {
    const run = runAs(process.versions.node, ['dist/server/main.cjs', '--version']);
    expect([run.code, run.out]).toEqual([0, expect.stringContaining(`Node.js ${process.version}`)]);
  });

  // the machines here have Debian's Node 20 as the system one: the real thing, where there is one
  const system = '/usr/bin/node';
  const systemVersion = existsSync(system)
    ? spawnSync(system, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
    : '';
  it.runIf(systemVersion !== '' && !satisfies(systemVersion))(
    `refuses the real system Node (${systemVersion || 'none'}) the same way`,
    () => {
      for (const args of [
        ['build/build.mjs', '--if-needed'],
        ['dist/server/main.cjs', 'serve'],
      ]) {
        const res = spawnSync(system, args, { cwd: root, encoding: 'utf8' });
        expect(res.status).toBe(1);
        expect(res.stderr).toContain(`this is Node.js v${systemVersion}`);
        expect(res.stderr).not.toMatch(/^\s+at /m);
      }
    },
  );
});
