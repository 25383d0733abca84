import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  listScheduledBackups,
  pruneBackups,
  readBackupSchedule,
  scheduledBackupName,
  startBackupSchedule,
} from './backup-schedule';
import { DataFolder } from './data-folder';

let folder: DataFolder;
beforeEach(() => {
  folder = new DataFolder(mkdtempSync(join(tmpdir(), 'taskreward-schedule-')));
  mkdirSync(folder.backupsDir, { recursive: true });
});
afterEach(() => rmSync(folder.root, { recursive: true, force: true }));

describe('readBackupSchedule', () => {
  it.each([
    [{}, null],
    [{ BACKUP_INTERVAL_HOURS: '0' }, null],
    [{ BACKUP_INTERVAL_HOURS: '24' }, { intervalHours: 24, keep: 7 }],
    [
      { BACKUP_INTERVAL_HOURS: '0.5', BACKUP_KEEP: '3' },
      { intervalHours: 0.5, keep: 3 },
    ],
  ])('reads %j as %j', (env, expected) => {
    expect(readBackupSchedule(env)).toEqual(expected);
  });

  it.each([
    [{ BACKUP_INTERVAL_HOURS: 'daily' }, /BACKUP_INTERVAL_HOURS/],
    [{ BACKUP_INTERVAL_HOURS: '-2' }, /BACKUP_INTERVAL_HOURS/],
    [{ BACKUP_INTERVAL_HOURS: '24', BACKUP_KEEP: '0' }, /BACKUP_KEEP/],
    [{ BACKUP_INTERVAL_HOURS: '24', BACKUP_KEEP: '2.5' }, /BACKUP_KEEP/],
  ])('refuses %j rather than silently not backing up', (env, message) => {
    expect(() => readBackupSchedule(env)).toThrow(message);
  });
});

describe('scheduled backups', () => {
  it('names backups by UTC time so they sort oldest first', () => {
    expect(scheduledBackupName(new Date('2026-11-23T10:04:05.123Z'))).toBe(
      'taskreward-20261123-100405Z.tar.gz',
    );
  });

  it('keeps the newest N scheduled backups and never touches other files', async () => {
    const names = [1, 2, 3, 4, 5].map((d) => scheduledBackupName(new Date(Date.UTC(2026, 0, d))));
    for (const n of [...names, 'before-upgrade.tar']) writeFileSync(join(folder.backupsDir, n), 'x');
    expect(await pruneBackups(folder, 2)).toEqual(names.slice(0, 3));
    expect(readdirSync(folder.backupsDir).sort()).toEqual(['before-upgrade.tar', ...names.slice(3)].sort());
  });

  it('runs on its interval and prunes after each run', async () => {
    const runs: string[] = [];
    const handle = startBackupSchedule(
      folder,
      { intervalHours: 0.1 / 3600, keep: 2 },
      async (file) => {
        runs.push(file);
        writeFileSync(file, 'archive');
      },
      { firstDelayMs: 10, log: () => {}, now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, runs.length)) },
    );
    while (runs.length < 4) await new Promise((r) => setTimeout(r, 20));
    handle.stop();
    await handle.idle();
    expect(await listScheduledBackups(folder)).toHaveLength(2);
  });

  it('waits one interval after the newest existing backup, so restarts do not add backups', async () => {
    const recent = join(folder.backupsDir, scheduledBackupName(new Date()));
    writeFileSync(recent, 'x');
    utimesSync(recent, new Date(), new Date());
    let ran = 0;
    const handle = startBackupSchedule(
      folder,
      { intervalHours: 1, keep: 5 },
      async () => {
        ran++;
      },
      { firstDelayMs: 10, log: () => {} },
    );
    await new Promise((r) => setTimeout(r, 200));
    handle.stop();
    expect(ran).toBe(0);
  });

  it('logs a failed run and keeps going', async () => {
    const lines: string[] = [];
    let calls = 0;
    const handle = startBackupSchedule(
      folder,
      { intervalHours: 0.05 / 3600, keep: 2 },
      async () => {
        calls++;
        throw new Error('disk full');
      },
      { firstDelayMs: 5, log: (l) => lines.push(l) },
    );
    while (calls < 2) await new Promise((r) => setTimeout(r, 10));
    handle.stop();
    expect(lines[0]).toBe('scheduled backup failed: disk full');
  });
});
