import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp } from '../bootstrap';
import { readConfig } from '../config';
import { readTaskListVersion } from '../features/tasks/task-list-version';
import { makeUser } from '../testing/factories';
import { createBackup } from './backup';
import { folderDigest, seed } from './backup-test-helpers';
import { DataFolder } from './data-folder';
import { FolderLockedError } from './lock';
import { BadArchiveError, type Manifest, serializeManifest } from './manifest';
import { restoreBackup } from './restore';

let scratch: string;
let archive: string;
let gzArchive: string;
/** A data folder in use elsewhere: every refused restore must leave it byte for byte. */
let target: DataFolder;
let targetDigest: Record<string, string>;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'taskreward-restore-'));
  const source = join(scratch, 'source');
  const opened = await openApp(readConfig({ DATA_DIR: source }), { web: new Map() });
  await seed(opened.deps.db, opened.folder, 3, 2);
  archive = (await createBackup(opened.folder, join(scratch, 'good.tar'))).file;
  gzArchive = (await createBackup(opened.folder, join(scratch, 'good.tar.gz'))).file;
  await opened.close();

  target = new DataFolder(join(scratch, 'target'));
  const other = await openApp(readConfig({ DATA_DIR: target.root }), { web: new Map() });
  await makeUser(other.deps.db, { email: 'only-here@example.test' });
  await other.close();
  mkdirSync(target.backupsDir, { recursive: true });
  writeFileSync(join(target.backupsDir, 'kept.tar'), 'an older backup');
  targetDigest = folderDigest(target.root);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Unpacks the good archive, lets `change` alter the files, and packs what is left. */
async function repack(name: string, change: (dir: string, manifest: Manifest) => string[] | undefined) {
  const dir = mkdtempSync(join(scratch, 'repack-'));
  await tar.extract({ file: archive, cwd: dir });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const entries = change(dir, manifest) ?? ['manifest.json', ...manifest.entries.map((e) => e.path)];
  const file = join(scratch, name);
  await tar.create({ file, cwd: dir, portable: true }, entries);
  return file;
}

function flipByte(from: string, name: string, at: (bytes: Buffer) => number): string {
  const bytes = readFileSync(from);
  bytes[at(bytes)] ^= 0xff;
  const file = join(scratch, name);
  writeFileSync(file, bytes);
  return file;
}

const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
const leftovers = () => readdirSync(scratch).filter((n) => n.startsWith('.target.'));

describe('restore refuses a damaged or foreign archive and leaves the folder untouched', () => {
  const cases: [string, () => Promise<string> | string, RegExp][] = [
    [
      'a flipped byte inside the database',
      () => {
        const bytes = readFileSync(archive);
        const db = bytes.indexOf(Buffer.from('SQLite format 3'));
        return flipByte(archive, 'flipped-db.tar', () => db + 4096 + 100);
      },
      /taskreward\.db does not match its checksum/,
    ],
    [
      'a flipped byte in a tar header',
      () => flipByte(archive, 'flipped-header.tar', () => 3),
      /damaged or not a tar/,
    ],
    [
      'a flipped byte in the manifest',
      () => flipByte(archive, 'flipped-manifest.tar', (b) => b.indexOf(Buffer.from('"createdAt"')) + 16),
      /manifest does not match its own checksum/,
    ],
    [
      'a manifest with an edited checksum list',
      () =>
        repack('edited.tar', (dir) => {
          const text = readFileSync(join(dir, 'manifest.json'), 'utf8');
          // Always a different digit: the first hex digit of a sha256 may already be "0".
          const edited = text.replace(
            /"sha256": "([0-9a-f])/,
            (_m, d: string) => `"sha256": "${d === '0' ? '1' : '0'}`,
          );
          expect(edited).not.toBe(text);
          writeFileSync(join(dir, 'manifest.json'), edited);
          return undefined;
        }),
      /manifest does not match its own checksum/,
    ],
    [
      'a flipped byte in the gzip stream',
      () => flipByte(gzArchive, 'flipped.tar.gz', (b) => b.length >> 1),
      /damaged/,
    ],
    [
      'a truncated archive',
      () => {
        const file = join(scratch, 'truncated.tar.gz');
        const bytes = readFileSync(gzArchive);
        writeFileSync(file, bytes.subarray(0, bytes.length >> 1));
        return file;
      },
      /damaged/,
    ],
    [
      'a missing file',
      () =>
        repack('missing.tar', (_dir, m) => [
          'manifest.json',
          ...m.entries.map((e) => e.path).filter((p) => !p.startsWith('files/proofs/')),
        ]),
      /files\/proofs\/\w+\.png is missing from the archive/,
    ],
    [
      'a foreign manifest',
      () =>
        repack('foreign.tar', (dir) => {
          const foreign = { format: 'pocketbase', entries: [] };
          writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...foreign, checksum: sha(foreign) }));
          return undefined;
        }),
      /not a TaskReward backup/,
    ],
    [
      'no manifest at all',
      () => repack('no-manifest.tar', (_dir, m) => m.entries.map((e) => e.path)),
      /no manifest\.json/,
    ],
    [
      'a file the manifest does not list',
      () =>
        repack('extra.tar', (dir, m) => {
          mkdirSync(join(dir, 'files/images'), { recursive: true });
          writeFileSync(join(dir, 'files/images', `${'a'.repeat(32)}.png`), 'sneaked in');
          return ['manifest.json', ...m.entries.map((e) => e.path), `files/images/${'a'.repeat(32)}.png`];
        }),
      /not in its manifest/,
    ],
    [
      'an entry outside the data folder layout',
      () =>
        repack('evil.tar', (dir, m) => {
          writeFileSync(join(dir, 'evil.sh'), 'rm -rf /');
          return ['manifest.json', ...m.entries.map((e) => e.path), 'evil.sh'];
        }),
      /unexpected entries: evil\.sh/,
    ],
    [
      'a manifest from a newer version',
      () =>
        repack('newer.tar', (dir, m) => {
          const { checksum: _, ...fields } = m as Manifest & { checksum: string };
          const newer = { ...fields, lastMigration: '2999-01-01-0000-future' };
          writeFileSync(join(dir, 'manifest.json'), serializeManifest(newer));
          return undefined;
        }),
      /newer TaskReward/,
    ],
    [
      'a file that is not a tar',
      () => {
        const file = join(scratch, 'noise.tar');
        writeFileSync(file, randomBytes(5000));
        return file;
      },
      /damaged|no manifest/,
    ],
    ['a path with no archive', () => join(scratch, 'nothing-here.tar'), /no archive at/],
  ];

  it.each(cases)('%s', async (_label, make, message) => {
    const file = await make();
    const err = await restoreBackup(target, file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadArchiveError);
    expect((err as Error).message).toMatch(message);
    expect(folderDigest(target.root)).toEqual(targetDigest);
    expect(leftovers()).toEqual([]);
  });
});

describe('restore and the server lock', () => {
  let sleeper: ChildProcess;
  beforeAll(() => {
    sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  });
  afterAll(() => {
    sleeper.kill('SIGKILL');
  });

  it('refuses a folder whose lock names a live process', async () => {
    writeFileSync(target.lockFile, `${sleeper.pid}\n`);
    try {
      const err = await restoreBackup(target, archive).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FolderLockedError);
      expect((err as Error).message).toContain(`pid ${sleeper.pid}`);
    } finally {
      rmSync(target.lockFile);
    }
    expect(folderDigest(target.root)).toEqual(targetDigest);
  });

  it('takes over a stale lock, swaps the backup in and keeps the old backups', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    writeFileSync(target.lockFile, `${dead.pid}\n`);
    const { replaced, manifest } = await restoreBackup(target, gzArchive);
    expect(replaced).toBe(true);
    const after = folderDigest(target.root);
    expect(after['backups/kept.tar']).toBe(targetDigest['backups/kept.tar']);
    expect(after['server.lock']).toBeUndefined();
    for (const e of manifest.entries) expect(after[e.path]).toBe(e.sha256);
    expect(leftovers()).toEqual([]);
    const opened = await openApp(readConfig({ DATA_DIR: target.root }), { web: new Map() });
    try {
      const emails = await opened.deps.db.selectFrom('users').select('email').execute();
      expect(emails.map((u) => u.email)).not.toContain('only-here@example.test');
      expect(emails).toHaveLength(3);
      // the restored file keeps the task list's triggers: a task filled moves every list
      const before = await readTaskListVersion(opened.deps.db);
      const filled = await opened.deps.db
        .updateTable('tasks')
        .set({ status: 'completed' })
        .where('status', '<>', 'completed')
        .executeTakeFirst();
      expect(Number(filled.numUpdatedRows)).toBeGreaterThan(0);
      expect(await readTaskListVersion(opened.deps.db)).toBe(before + Number(filled.numUpdatedRows));
    } finally {
      await opened.close();
    }
    expect(existsSync(target.root)).toBe(true);
  });
});
