import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupCommand } from '../cli/backup';
import { runDoctor } from '../cli/doctor';
import { restoreCommand } from '../cli/restore';
import { readConfig, readS3Config } from '../config';
import { findOrphanedProofs } from '../features/submissions/orphaned-proofs';
import { submit } from '../features/submissions/submission-test-helpers';
import { createTask } from '../features/tasks/task-test-helpers';
import { makeUser } from '../testing/factories';
import { startS3Server, type TestS3 } from '../testing/s3-server';
import { createTestApp, type TestApp } from '../testing/test-app';
import { createBackup, FilesElsewhereError } from './backup';
import { DataFolder } from './data-folder';
import { LocalFileStore, openFileStore, TempArea } from './file-store';
import { fileStoreContract } from './file-store-contract';
import { pngFile } from './image-fixtures';
import { S3FileStore } from './s3-file-store';

let s3: TestS3;
const scratch = mkdtempSync(join(tmpdir(), 'taskreward-s3-store-'));
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
});

let made = 0;
/** A fresh data folder under the scratch folder. */
function freshFolder(): DataFolder {
  const folder = new DataFolder(join(scratch, `data-${++made}`));
  folder.prepare();
  return folder;
}

fileStoreContract('the data folder (LocalFileStore)', async () => {
  const folder = freshFolder();
  return {
    store: new LocalFileStore(folder),
    async plant(path, bytes) {
      mkdirSync(dirname(join(folder.filesDir, path)), { recursive: true });
      writeFileSync(join(folder.filesDir, path), bytes);
    },
    exists: async (path) => existsSync(join(folder.filesDir, path)),
  };
});

fileStoreContract('an S3 bucket (S3FileStore)', async () => {
  // each subject under a prefix of its own, in the one bucket
  const config = { ...s3.config, prefix: `contract-${++made}/` };
  const folder = freshFolder();
  return {
    store: new S3FileStore(new TempArea(folder), config),
    plant: (path, bytes) => s3.put(`${config.prefix}${path}`, bytes),
    exists: (path) => s3.has(`${config.prefix}${path}`),
  };
});

describe('S3FileStore', () => {
  it('keeps proofs and images under proofs/ and images/, after S3_PREFIX when there is one', async () => {
    const folder = freshFolder();
    const plain = new S3FileStore(new TempArea(folder), { ...s3.config, prefix: '' });
    const proof = await plain.save('proofs', pngFile(3, 3), 'image/png');
    const image = await plain.save('images', pngFile(4, 4), 'image/png');
    const site = readS3Config({ ...s3.env, S3_PREFIX: '/sites/one/' })!;
    expect(site.prefix).toBe('sites/one/');
    const prefixed = new S3FileStore(new TempArea(folder), site);
    const other = await prefixed.save('proofs', pngFile(5, 5), 'image/png');
    const keys = await s3.keys();
    expect(keys).toEqual(
      expect.arrayContaining([`proofs/${proof}`, `images/${image}`, `sites/one/proofs/${other}`]),
    );
    // the stores do not see each other's files
    expect(await plain.list('proofs')).not.toContain(other);
    expect(await prefixed.list('proofs')).toEqual([other]);
    // nothing went to the data folder but the (empty) temp area
    expect(readdirSync(folder.filesDir)).toEqual([]);
    expect(await plain.listTemp()).toEqual([]);
  });

  it('lists more than one page of keys (ListObjectsV2 gives 1,000 a page)', async () => {
    const config = { ...s3.config, prefix: `paged-${++made}/` };
    const store = new S3FileStore(new TempArea(freshFolder()), config);
    const names: string[] = [];
    for (let i = 0; i < 1005; i += 15) {
      names.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(15, 1005 - i) }, () =>
            store.save('images', Buffer.from('i'), 'image/png'),
          ),
        )),
      );
    }
    const listed = await store.list('images');
    expect(listed).toHaveLength(1005);
    expect(listed).toEqual([...names].sort());
  }, 120_000);

  it('sends no request for a bad name (a store that cannot be reached answers as if empty)', async () => {
    const unreachable = new S3FileStore(new TempArea(freshFolder()), {
      ...s3.config,
      endpoint: 'http://127.0.0.1:9',
    });
    expect(await unreachable.read('proofs', '../secret.key')).toBeNull();
    expect(await unreachable.read('images', `${'a'.repeat(32)}.svg`)).toBeNull();
    await unreachable.remove('proofs', '../../taskreward.db');
    // while a good name does go out, and fails loudly
    await expect(unreachable.read('proofs', `${'a'.repeat(32)}.png`)).rejects.toThrow();
  });

  it('fails loudly on a bucket that does not exist instead of answering "no such file"', async () => {
    const wrong = new S3FileStore(new TempArea(freshFolder()), { ...s3.config, bucket: 'no-such-bucket' });
    await expect(wrong.read('proofs', `${'a'.repeat(32)}.png`)).rejects.toMatchObject({
      name: 'NoSuchBucket',
    });
    await expect(wrong.list('proofs')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    await expect(wrong.save('proofs', Buffer.from('x'), 'image/png')).rejects.toMatchObject({
      name: 'NoSuchBucket',
    });
  });

  it('refuses credentials the server does not know', async () => {
    const stranger = new S3FileStore(new TempArea(freshFolder()), {
      ...s3.config,
      credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'nothing' },
    });
    await expect(stranger.list('proofs')).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
  });
});

describe('the S3 settings (S3_BUCKET, S3_ENDPOINT...)', () => {
  it('are off without S3_BUCKET: the data folder keeps the files', () => {
    const config = readConfig({ DATA_DIR: scratch });
    expect(config.s3).toBeNull();
    const store = openFileStore(config);
    expect(store).toBeInstanceOf(LocalFileStore);
    expect(store.shared).toBe(false);
  });

  it('read the bucket, endpoint, region, prefix, path style and credentials', () => {
    expect(
      readS3Config({
        S3_BUCKET: 'proofs',
        S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com',
        S3_REGION: 'auto',
        S3_PREFIX: 'site',
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'id',
        AWS_SECRET_ACCESS_KEY: 'secret',
      }),
    ).toEqual({
      bucket: 'proofs',
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      region: 'auto',
      prefix: 'site/',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    // AWS S3 itself: no endpoint, the region from AWS_REGION, credentials left to the SDK's chain
    expect(readS3Config({ S3_BUCKET: 'b', AWS_REGION: 'eu-central-1' })).toEqual({
      bucket: 'b',
      endpoint: null,
      region: 'eu-central-1',
      prefix: '',
      forcePathStyle: false,
      credentials: null,
    });
    expect(readS3Config({ S3_BUCKET: 'b' })?.region).toBe('us-east-1');
    expect(
      readS3Config({
        S3_BUCKET: 'b',
        AWS_ACCESS_KEY_ID: 'i',
        AWS_SECRET_ACCESS_KEY: 's',
        AWS_SESSION_TOKEN: 't',
      })?.credentials,
    ).toEqual({ accessKeyId: 'i', secretAccessKey: 's', sessionToken: 't' });
  });

  it.each([
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /S3_BUCKET is not/],
    [{ S3_PREFIX: 'site' }, /S3_BUCKET is not/],
    [{ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' }, /http:\/\/ or https:\/\//],
    [{ S3_BUCKET: 'b', AWS_ACCESS_KEY_ID: 'id' }, /set both or neither/],
  ])('refuse a half-given setting %o rather than keep files on one node', (env, message) => {
    expect(() => readConfig({ DATA_DIR: scratch, ...env })).toThrow(message);
  });

  it('open an S3 store, the one the app keeps in its deps', () => {
    const config = readConfig({ DATA_DIR: scratch, ...s3.env });
    const store = openFileStore(config);
    expect(store).toBeInstanceOf(S3FileStore);
    expect(store.shared).toBe(true);
    expect(store.description).toBe(`S3 bucket ${s3.bucket} at ${s3.endpoint}`);
    expect(openFileStore(readConfig({ DATA_DIR: scratch }))).toBeInstanceOf(LocalFileStore);
  });
});

describe('an app whose files are in S3', () => {
  let t: TestApp;
  let proofName: string;
  let thumbName: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...s3.env, S3_PREFIX: 'app' } });
    const adminToken = await t.tokenFor(await makeUser(t.deps.db, { role: 'admin' }));
    const token = await t.tokenFor(await makeUser(t.deps.db));
    const taskId = await createTask(t, adminToken);
    await t.call('POST', `/api/tasks/${taskId}/start`, { token });
    const res = await submit(t, token, { task: taskId, file: pngFile(12, 12) });
    expect(res.status).toBe(201);
    const row = await t.deps.db.selectFrom('submissions').selectAll().executeTakeFirstOrThrow();
    proofName = row.proof_file!;
    thumbName = row.proof_thumb!;
  });
  afterAll(() => t?.dispose());

  it('passes the doctor, which reads the bucket, and it finds a missing and an orphaned file there', async () => {
    const store = t.deps.files;
    expect(await runDoctor(t.folder, { databaseUrl: t.deps.config.databaseUrl, store })).toEqual([]);
    // the local files/ is empty: a doctor that looked there would report the proof missing
    expect(await runDoctor(t.folder, { databaseUrl: t.deps.config.databaseUrl })).toEqual([
      expect.objectContaining({ check: 'missing_file' }),
      expect.objectContaining({ check: 'missing_file' }),
    ]);
    const orphan = await store.save('proofs', pngFile(2, 2), 'image/png');
    const thumb = await store.read('proofs', thumbName);
    await store.remove('proofs', thumbName);
    try {
      // a fresh file no row names may be an upload on its way (nodes share the bucket): not yet
      expect(await runDoctor(t.folder, { databaseUrl: t.deps.config.databaseUrl, store })).toEqual([
        expect.objectContaining({ check: 'missing_file', message: expect.stringContaining(thumbName) }),
      ]);
      const later = new Date(Date.now() + 2 * 3_600_000);
      const findings = await runDoctor(t.folder, {
        databaseUrl: t.deps.config.databaseUrl,
        store,
        now: later,
      });
      expect(findings).toEqual(
        expect.arrayContaining([
          { check: 'orphan_file', message: `stored file proofs/${orphan} is named by no row` },
          expect.objectContaining({ check: 'missing_file', message: expect.stringContaining(thumbName) }),
        ]),
      );
      expect(findings).toHaveLength(2);
    } finally {
      await store.remove('proofs', orphan);
      // put the thumbnail back under its name, as it was
      await s3.put(`app/proofs/${thumbName}`, thumb!.bytes);
    }
    expect(await runDoctor(t.folder, { databaseUrl: t.deps.config.databaseUrl, store })).toEqual([]);
    expect(await store.read('proofs', proofName)).not.toBeNull();
  });

  it("spares another node's fresh upload when a node starts, and finds it once it is old", async () => {
    const { openApp } = await import('../bootstrap');
    const store = t.deps.files;
    // another node's proof whose row is not committed yet, and a fresh image likewise
    const fresh = await store.save('proofs', pngFile(3, 3), 'image/png');
    const image = await store.save('images', pngFile(3, 3), 'image/png');
    const starting = await openApp(t.deps.config, { web: new Map(), clearTemp: true });
    await starting.close();
    expect(await store.read('proofs', fresh)).not.toBeNull();
    expect(await store.read('images', image)).not.toBeNull();
    // even a caller asking for no grace gets the shared store's hour
    expect(await findOrphanedProofs(t.deps.db, t.deps.files, new Date(), -1)).toEqual([]);
    const later = new Date(Date.now() + 2 * 3_600_000);
    expect(await findOrphanedProofs(t.deps.db, t.deps.files, later, -1)).toEqual([fresh]);
    await store.remove('proofs', fresh);
    await store.remove('images', image);
  });

  it('refuses a backup, naming the bucket and what to use, and writes nothing', async () => {
    const dest = join(scratch, 'refused.tar.gz');
    const store = t.deps.files;
    const refusal = createBackup(t.folder, dest, store);
    await expect(refusal).rejects.toBeInstanceOf(FilesElsewhereError);
    await expect(refusal).rejects.toThrow(
      `files are in S3 bucket ${s3.bucket} (prefix app/) at ${s3.endpoint}, not in the data folder: ` +
        "back up the bucket with the provider's bucket versioning or replication, or with rclone or aws s3 sync",
    );
    expect(existsSync(dest)).toBe(false);
    expect(readdirSync(t.folder.tmpDir)).toEqual([]);
  });

  it('refuses `backup` and `restore` on the command line with exit code 2', async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => {
      errors.push(line);
    });
    for (const [key, value] of Object.entries({ ...s3.env, S3_PREFIX: 'app' })) vi.stubEnv(key, value);
    try {
      const dest = join(scratch, 'cli.tar.gz');
      expect(await backupCommand.run({ data: t.dataDir }, [dest])).toBe(2);
      expect(existsSync(dest)).toBe(false);
      expect(await restoreCommand.run({ data: t.dataDir }, [dest])).toBe(2);
    } finally {
      vi.unstubAllEnvs();
      spy.mockRestore();
    }
    expect(errors).toEqual([
      expect.stringMatching(
        /^refused: files are in S3 bucket .* back up the bucket .*Nothing was written\.$/,
      ),
      expect.stringMatching(/^refused: files are in S3 bucket .* restore the bucket .*was not touched\.$/),
    ]);
  });
});
