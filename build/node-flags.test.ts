import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../faults/server';
import { MALLOC_TUNABLE, MALLOC_TUNABLES } from '../src-server/cli/malloc-tunables';
import NODE_FLAGS from '../src-server/node-flags.json';

// The server's Node flags (src-server/node-flags.json: a young generation of at most 8 MB, an old
// generation whose first full collection comes at 16 MB, and each next one when it has grown by a
// fifth, not after tens of megabytes of promoted garbage; see docs/decisions.md "Images on
// sharp" and "A young generation of 8 MB") hold for every way it is started: npm start, npm run
// dev, the single binary (its SEA execArgv, build/binary.mjs), the desktop shell's development
// fallback, and the server the benchmarks and fault suites run.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe("the server's Node flags", () => {
  it('are a young generation of at most 8 MB and an old one collected from 16 MB, growing by a fifth', () => {
    expect(NODE_FLAGS.server).toEqual([
      '--max-semi-space-size=4',
      '--initial-old-space-size=16',
      '--heap-growing-percent=20',
    ]);
  });

  it('are on the command of npm start, before the server', () => {
    const start: string = JSON.parse(read('package.json')).scripts.start;
    const command = start.slice(start.indexOf('exec node'));
    for (const flag of NODE_FLAGS.server) {
      expect(command).toContain(` ${flag} `);
      expect(command.indexOf(flag)).toBeLessThan(command.indexOf('dist/server/main.cjs'));
    }
  });

  it('are given to the single binary and to the development server by the build scripts', () => {
    expect(read('build/binary.mjs')).toMatch(/execArgv: serverNodeFlags\(\)/);
    expect(read('build/build.mjs')).toMatch(/'--enable-source-maps', \.\.\.serverNodeFlags\(\)/);
  });

  describe('on the server the benchmarks and fault suites start', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServerProcess();
    }, 30_000);
    afterAll(() => server?.stop());

    it('are on its command line, once', () => {
      const argv = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
      for (const flag of NODE_FLAGS.server) expect(argv.filter((a) => a === flag)).toEqual([flag]);
    });

    it("runs with glibc's malloc tuned, as the process that was started (src-server/cli/malloc-tunables.ts)", () => {
      // glibc (2.36) ends each tunable it read with a NUL in the environment's own bytes, so
      // /proc shows the first one; the process's environ, read by the start, has them all
      const environ = readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0');
      const tunables = environ.find((v) => v.startsWith('GLIBC_TUNABLES='))?.slice('GLIBC_TUNABLES='.length);
      expect([MALLOC_TUNABLE, MALLOC_TUNABLES[0]]).toContain(tunables);
      expect(readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0')).toContain('serve');
    });
  });
});
