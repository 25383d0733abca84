import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolder } from './data-folder';
import { acquireLock, FolderLockedError, lockHolder } from './lock';

let folder: DataFolder;
beforeEach(() => {
  folder = new DataFolder(mkdtempSync(join(tmpdir(), 'taskreward-lock-')));
});
afterEach(() => rmSync(folder.root, { recursive: true, force: true }));

/** A process that has already exited, so its id names nobody. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid ?? 999_999;
}

describe('the data folder lock', () => {
  it('writes this pid into the lock file and removes it on release', async () => {
    const lock = await acquireLock(folder);
    expect(readFileSync(folder.lockFile, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    lock.release();
    expect(existsSync(folder.lockFile)).toBe(false);
  });

  it('refuses while a live process holds it, naming the pid', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      writeFileSync(folder.lockFile, `${sleeper.pid}\n`);
      expect(lockHolder(folder)).toBe(sleeper.pid);
      await expect(acquireLock(folder, 150)).rejects.toThrow(FolderLockedError);
      await expect(acquireLock(folder)).rejects.toThrow(`pid ${sleeper.pid}`);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('waits for a holder that lets go', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300)'], { stdio: 'ignore' });
    writeFileSync(folder.lockFile, `${sleeper.pid}\n`);
    const lock = await acquireLock(folder, 5_000);
    expect(readFileSync(folder.lockFile, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it.each([
    ['a dead process', async () => String(await deadPid())],
    ['this very process (an earlier life of pid 1 in a container)', async () => String(process.pid)],
    ['garbage', async () => 'not a pid'],
  ])('takes over a stale lock left by %s', async (_label, content) => {
    writeFileSync(folder.lockFile, await content());
    expect(lockHolder(folder)).toBeNull();
    const lock = await acquireLock(folder);
    expect(readFileSync(folder.lockFile, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('release leaves a lock another process took over alone', async () => {
    const lock = await acquireLock(folder);
    writeFileSync(folder.lockFile, '12345\n');
    lock.release();
    expect(readFileSync(folder.lockFile, 'utf8')).toBe('12345\n');
  });
});
