import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config';
import { DataFolder } from './data-folder';
import { contentTypeOf, fileStoreFor, LocalFileStore } from './file-store';

// The contract every store keeps (save, read, remove, list, bad names) runs against this store and
// the S3 one in s3-file-store.test.ts; these are the data folder's own.
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
    expect(fileStoreFor(config)).toBeInstanceOf(LocalFileStore);
    expect(fileStoreFor(config)).toBe(fileStoreFor(readConfig({ DATA_DIR: root })));
  });
});
