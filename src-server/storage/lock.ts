import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { DataFolder } from './data-folder';

/** Whether a process with this id is alive (on this machine). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * The process that holds the data folder's lock, or null when none does. A lock whose
 * process is gone is stale and does not count, nor does one naming this very process
 * (left by an earlier life of a container whose server is always pid 1).
 */
export function lockHolder(folder: DataFolder): number | null {
  const pid = readPid(folder.lockFile);
  if (pid === null || pid === process.pid || !alive(pid)) return null;
  return pid;
}

/** Thrown when another live process holds the data folder. */
export class FolderLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(`the data folder ${folder} is in use by a running server (pid ${pid}); stop it first`);
  }
}

export interface FolderLock {
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): void;
}

/**
 * Takes the data folder's lock: writes this process's id into DataFolder.lockFile. Waits up
 * to `waitMs` for a live holder to let go (a restarting dev server), then throws
 * FolderLockedError. A stale lock is taken over.
 */
export async function acquireLock(folder: DataFolder, waitMs = 0): Promise<FolderLock> {
  const until = Date.now() + waitMs;
  for (;;) {
    const holder = lockHolder(folder);
    if (holder === null) break;
    if (Date.now() >= until) throw new FolderLockedError(folder.root, holder);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  rmSync(folder.lockFile, { force: true });
  try {
    writeFileSync(folder.lockFile, `${process.pid}\n`, { flag: 'wx' });
  } catch (err) {
    // another process took it between our check and our write
    const holder = lockHolder(folder);
    if (holder !== null) throw new FolderLockedError(folder.root, holder);
    throw err;
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (readPid(folder.lockFile) === process.pid) rmSync(folder.lockFile, { force: true });
    },
  };
}
