import { describe, expect, it } from 'vitest';
import {
  MALLOC_TUNABLE,
  MALLOC_TUNABLES,
  type ProcessFacts,
  TUNED_MARK,
  tunedStart,
} from './malloc-tunables';

const node: ProcessFacts = {
  platform: 'linux',
  env: { PATH: '/usr/bin', DATA_DIR: '/srv/data' },
  execPath: '/opt/node/bin/node',
  execArgv: ['--max-semi-space-size=16', '--enable-source-maps'],
  argv: ['/opt/node/bin/node', '/app/dist/server/main.cjs', 'serve', '--port', '8080'],
  singleBinary: false,
  electron: false,
  canExec: true,
};

describe("the server's start with glibc's malloc tuned", () => {
  it('starts Node again with the same flags, script and arguments, and the tunable added', () => {
    expect(tunedStart(node)).toEqual({
      file: '/opt/node/bin/node',
      args: [
        '/opt/node/bin/node',
        '--max-semi-space-size=16',
        '--enable-source-maps',
        '/app/dist/server/main.cjs',
        'serve',
        '--port',
        '8080',
      ],
      env: { PATH: '/usr/bin', DATA_DIR: '/srv/data', GLIBC_TUNABLES: MALLOC_TUNABLE, [TUNED_MARK]: '1' },
    });
  });

  it('starts the single binary again with its own arguments only (its flags are inside it)', () => {
    const start = tunedStart({
      ...node,
      execPath: '/usr/local/bin/taskreward',
      execArgv: ['--max-semi-space-size=16'],
      argv: ['/usr/local/bin/taskreward', '/usr/local/bin/taskreward', '--data', '/srv/data'],
      singleBinary: true,
    });
    expect(start?.args).toEqual(['/usr/local/bin/taskreward', '--data', '/srv/data']);
    expect(start?.file).toBe('/usr/local/bin/taskreward');
  });

  it("adds what the operator's own tunables lack, and leaves theirs as they are", () => {
    const others = tunedStart({ ...node, env: { GLIBC_TUNABLES: 'glibc.rtld.optional_static_tls=2048' } });
    expect(others?.env.GLIBC_TUNABLES).toBe(`glibc.rtld.optional_static_tls=2048:${MALLOC_TUNABLE}`);
    const threshold = tunedStart({ ...node, env: { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=65536' } });
    expect(threshold?.env.GLIBC_TUNABLES).toBe('glibc.malloc.mmap_threshold=65536:glibc.malloc.arena_max=1');
    const arenas = tunedStart({ ...node, env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=8' } });
    expect(arenas?.env.GLIBC_TUNABLES).toBe('glibc.malloc.arena_max=8:glibc.malloc.mmap_threshold=131072');
    for (const set of [
      MALLOC_TUNABLE,
      'glibc.malloc.arena_max=4:glibc.malloc.mmap_threshold=1048576',
      'glibc.malloc.mmap_threshold=0:glibc.malloc.arena_max=1:glibc.malloc.tcache_count=0',
    ])
      expect(tunedStart({ ...node, env: { GLIBC_TUNABLES: set } })).toBeNull();
  });

  it('runs once: a start it made is tuned, and never starts again whatever glibc left of the tunables', () => {
    const first = tunedStart(node);
    expect(first).not.toBeNull();
    expect(tunedStart({ ...node, env: first?.env ?? {} })).toBeNull();
    // glibc 2.36 shows only the first tunable in /proc/PID/environ: were environ the same, no loop
    expect(tunedStart({ ...node, env: { ...first?.env, GLIBC_TUNABLES: MALLOC_TUNABLES[0] } })).toBeNull();
    expect(tunedStart({ ...node, env: { ...first?.env, GLIBC_TUNABLES: undefined } })).toBeNull();
  });

  it('is the server only: the default command and serve, not the short commands', () => {
    const withArgs = (...args: string[]) =>
      tunedStart({ ...node, argv: [node.argv[0], node.argv[1], ...args] });
    expect(withArgs()).not.toBeNull();
    expect(withArgs('--port', '80')).not.toBeNull();
    for (const args of [
      ['backup', 'x.tar'],
      ['restore'],
      ['doctor'],
      ['migrate'],
      ['--help'],
      ['-v'],
      ['--version'],
    ])
      expect(withArgs(...args)).toBeNull();
  });

  it('leaves other systems, Electron and a Node without execve as they are', () => {
    expect(tunedStart({ ...node, platform: 'darwin' })).toBeNull();
    expect(tunedStart({ ...node, platform: 'win32' })).toBeNull();
    expect(tunedStart({ ...node, electron: true })).toBeNull();
    expect(tunedStart({ ...node, canExec: false })).toBeNull();
  });
});
