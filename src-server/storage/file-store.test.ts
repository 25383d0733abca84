import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFolder } from './data-folder';
import { FileStore, fileStoreFor, isStoredName } from './file-store';

let root: string;
let store: FileStore;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'taskreward-store-'));
  const folder = new DataFolder(root);
  folder.prepare();
  store = new FileStore(folder);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('FileStore', () => {
  it('saves under a random 128-bit name with the extension of its type, and reads it back', async () => {
    const name = await store.save('proofs', Buffer.from('png bytes'), 'image/png');
    expect(name).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(await store.read('proofs', name)).toEqual({
      bytes: Buffer.from('png bytes'),
      contentType: 'image/png',
    });
    expect(await store.list('proofs')).toEqual([name]);
    expect(await store.listTemp()).toEqual([]);
  });

  it.each([
    ['image/jpeg', 'jpg'],
    ['image/x-icon', 'ico'],
  ] as const)('records %s as .%s', async (type, ext) => {
    const name = await store.save('images', Buffer.from('x'), type);
    expect(name.endsWith(`.${ext}`)).toBe(true);
    expect((await store.read('images', name))?.contentType).toBe(type);
  });

  it('keeps kinds apart', async () => {
    const name = await store.save('images', Buffer.from('public'), 'image/png');
    expect(await store.read('proofs', name)).toBeNull();
  });

  it('never gives two saves the same name', async () => {
    const names = await Promise.all(
      Array.from({ length: 20 }, () => store.save('proofs', Buffer.from('x'), 'image/png')),
    );
    expect(new Set(names).size).toBe(20);
  });

  it('removes a file, and a missing one quietly', async () => {
    const name = await store.save('proofs', Buffer.from('x'), 'image/png');
    await store.remove('proofs', name);
    await store.remove('proofs', name);
    expect(await store.read('proofs', name)).toBeNull();
  });

  it.each([
    '../secret.key',
    '..',
    'a.png',
    `${'a'.repeat(32)}.svg`,
    `${'A'.repeat(32)}.png`,
    `${'a'.repeat(32)}.png/x`,
  ])('treats %s as no stored name', async (name) => {
    expect(isStoredName(name)).toBe(false);
    expect(await store.read('proofs', name)).toBeNull();
  });

  it('lists nothing for a kind never written to', async () => {
    const other = new FileStore(new DataFolder(join(root, 'empty')));
    expect(await other.list('images')).toEqual([]);
  });

  it('shares one store per data folder', () => {
    expect(fileStoreFor(root)).toBe(fileStoreFor(root));
  });
});
