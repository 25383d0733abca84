import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config';
import { findOrphanedProofs } from '../features/submissions/orphaned-proofs';
import { submit } from '../features/submissions/submission-test-helpers';
import { createTask } from '../features/tasks/task-test-helpers';
import { makeUser } from '../testing/factories';
import { createTestApp, type TestApp } from '../testing/test-app';
import { createBackup, FilesElsewhereError } from './backup';
import { DataFolder } from './data-folder';
import { contentTypeOf, LocalFileStore, openFileStore } from './file-store';
import { fileStoreContract } from './file-store-contract';
import { pngFile } from './image-fixtures';

// The contract every store keeps (save, read, remove, list, bad names) runs against the data
// folder's store and the S3 one in s3-file-store.test.ts, and against a shared folder here.
let root: string;
let folder: DataFolder;
let store: LocalFileStore;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'taskreward-store-'));
  folder = new DataFolder(root);
  folder.prepare();
  store = new LocalFileStore(folder);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('LocalFileStore', () => {
  it('keeps a file at files/<kind>/<name> in the data folder', async () => {
    const name = await store.save('proofs', Buffer.from('png bytes'), 'image/png');
    expect(existsSync(join(folder.filesDir, 'proofs', name))).toBe(true);
    expect(store.description).toBe(`the folder ${folder.filesDir}`);
    expect(store.shared).toBe(false);
  });

  it('stages uploads in the temp folder, and discards them', async () => {
    const path = store.tempPath();
    expect(path.startsWith(folder.tmpDir)).toBe(true);
    writeFileSync(path, 'part');
    expect(await store.listTemp()).toHaveLength(1);
    await store.discardTemp(path);
    await store.discardTemp(path);
    expect(await store.listTemp()).toEqual([]);
  });

  it('tells the content type from a stored name only', () => {
    expect(contentTypeOf(`${'a'.repeat(32)}.jpg`)).toBe('image/jpeg');
    expect(contentTypeOf(`${'a'.repeat(32)}.ico`)).toBe('image/x-icon');
    expect(contentTypeOf('../x.png')).toBeNull();
  });

  it('lists nothing for a data folder never written to', async () => {
    const other = new LocalFileStore(new DataFolder(join(root, 'empty')));
    expect(await other.list('images')).toEqual([]);
    expect(await other.listWithTimes('proofs')).toEqual([]);
  });

  it('is the one store of a data folder without S3 settings', () => {
    const config = readConfig({ DATA_DIR: root });
    expect(openFileStore(config)).toBeInstanceOf(LocalFileStore);
    expect(openFileStore(config).description).toBe(`the folder ${join(root, 'files')}`);
  });
});

fileStoreContract('a folder every node mounts (LocalFileStore, FILES_DIR)', async () => {
  const shared = mkdtempSync(join(root, 'shared-'));
  const folder = new DataFolder(mkdtempSync(join(root, 'node-')));
  folder.prepare();
  return {
    store: new LocalFileStore(folder, shared),
    async plant(path, bytes) {
      mkdirSync(dirname(join(shared, path)), { recursive: true });
      writeFileSync(join(shared, path), bytes);
    },
    exists: async (path) => existsSync(join(shared, path)),
  };
});

describe('files in a folder every node mounts (FILES_DIR)', () => {
  let shared: string;
  let a: TestApp;
  let b: TestApp;
  let proofUrl: string;
  beforeAll(async () => {
    shared = mkdtempSync(join(root, 'mounted-'));
    const env = { FILES_DIR: shared, TOKEN_SECRET: 'one-secret-every-node-shares-0123456789' };
    a = await createTestApp({ env });
    b = await createTestApp({ env });
    const adminToken = await a.tokenFor(await makeUser(a.deps.db, { role: 'admin' }));
    const token = await a.tokenFor(await makeUser(a.deps.db));
    const taskId = await createTask(a, adminToken);
    await a.call('POST', `/api/tasks/${taskId}/start`, { token });
    const res = await submit(a, token, { task: taskId, file: pngFile(12, 12) });
    expect(res.status).toBe(201);
    proofUrl = res.body.data.proofImageUrl;
  });
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
  });

  it('keeps proofs there, not in the data folders, and any node serves their signed URL', async () => {
    const name = proofUrl.split('/').pop()!.split('?')[0];
    // the proof and its thumbnail, and no staged .part left beside them
    expect(readdirSync(join(shared, 'proofs'))).toHaveLength(2);
    expect(readdirSync(join(shared, 'proofs'))).toContain(name);
    expect(readdirSync(join(a.dataDir, 'files'), { recursive: true })).toEqual([]);
    const store = a.deps.files;
    expect([store.shared, store.description]).toEqual([true, `the shared folder ${shared}`]);
    const served = await b.app.request(proofUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals((await store.read('proofs', name))!.bytes)).toBe(
      true,
    );
  });

  it("spares another node's fresh upload at start, and refuses a backup", async () => {
    const store = b.deps.files;
    const fresh = await store.save('proofs', pngFile(3, 3), 'image/png');
    const { openApp } = await import('../bootstrap');
    const starting = await openApp(b.deps.config, { web: new Map(), clearTemp: true });
    await starting.close();
    expect(await store.read('proofs', fresh)).not.toBeNull();
    const later = new Date(Date.now() + 2 * 3_600_000);
    expect(await findOrphanedProofs(b.deps.db, b.deps.files, later, -1)).toContain(fresh);
    const refusal = createBackup(b.folder, join(root, 'shared.tar'), store);
    await expect(refusal).rejects.toBeInstanceOf(FilesElsewhereError);
    await expect(refusal).rejects.toThrow(
      `files are in the shared folder ${shared}, not in the data folder: back up that folder with its file system's snapshots, rsync or rclone`,
    );
  });

  it('is one or the other with S3_BUCKET, never both', () => {
    expect(() => readConfig({ FILES_DIR: shared, S3_BUCKET: 'b' })).toThrow(/set one of them/);
    expect(readConfig({ FILES_DIR: ` ${shared} ` }).filesDir).toBe(shared);
    expect(readConfig({}).filesDir).toBeNull();
  });
});
