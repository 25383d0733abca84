import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { nativeCacheDir, unpackToCache } from './embedded';

// The single binary's native files: unpacked together, at their node_modules paths, once.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'taskreward-embedded-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const files = ['@img/sharp-linux-x64/lib/sharp.node', '@img/sharp-libvips-linux-x64/lib/libvips-cpp.so.8'];
const bytes = (name: string) => new TextEncoder().encode(`bytes of ${name}`);

describe('unpackToCache', () => {
  it('writes every file under one folder named by the set, keeping their paths', () => {
    const reads: string[] = [];
    const read = (f: string) => {
      reads.push(f);
      return bytes(f);
    };
    const folder = unpackToCache('abc123', files, read, join(dir, 'cache'));
    expect(folder).toBe(join(dir, 'cache', 'abc123'));
    for (const f of files) expect(readFileSync(join(folder, ...f.split('/')), 'utf8')).toBe(`bytes of ${f}`);
    expect(reads).toEqual(files);
    // the next start finds them and reads nothing
    unpackToCache('abc123', files, read, join(dir, 'cache'));
    expect(reads).toEqual(files);
  });

  it('falls back to the temp folder when the cache folder cannot be written', () => {
    if (process.getuid?.() === 0) {
      // root writes through permissions: a file where the folder should be blocks it instead
      writeFileSync(join(dir, 'blocked'), 'not a folder');
    } else {
      mkdirSync(join(dir, 'blocked'));
      chmodSync(join(dir, 'blocked'), 0o500);
    }
    const id = `test-${process.pid}-${Date.now()}`;
    const folder = unpackToCache(id, files, bytes, join(dir, 'blocked', 'cache'));
    try {
      expect(folder).toBe(join(tmpdir(), `taskreward-${version}`, id));
      expect(readFileSync(join(folder, ...files[0].split('/')), 'utf8')).toBe(`bytes of ${files[0]}`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses a name that would leave the folder', () => {
    expect(() => unpackToCache('x', ['../../evil.node'], bytes, join(dir, 'cache'))).toThrow(/leaves/);
  });
});

describe('nativeCacheDir', () => {
  it('takes TASKREWARD_CACHE_DIR, else the platform cache folder per version', () => {
    expect(nativeCacheDir({ TASKREWARD_CACHE_DIR: '/srv/cache' }, 'linux')).toBe('/srv/cache');
    expect(nativeCacheDir({ XDG_CACHE_HOME: '/home/u/.cache' }, 'linux')).toBe(
      join('/home/u/.cache', 'taskreward', version),
    );
    expect(nativeCacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32')).toBe(
      join('C:\\Users\\u\\AppData\\Local', 'taskreward', version),
    );
  });
});
