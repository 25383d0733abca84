// Test-only: what every FileStore must do, run against each kind (never imported by the server).
import { beforeAll, describe, expect, it } from 'vitest';
import { type FileStore, isStoredName } from './file-store';

export interface ContractSubject {
  /** A store of its own: empty, and seen by no other test. */
  store: FileStore;
  /** Puts bytes at a path relative to the store's root (`proofs/x`, `secret.key`) behind its back. */
  plant(path: string, bytes: Buffer): Promise<void>;
  /** Whether something is at that path. */
  exists(path: string): Promise<boolean>;
}

/** The store's contract: save, read, remove, list and listWithTimes, unknown names and bad names. */
export function fileStoreContract(label: string, make: () => Promise<ContractSubject>): void {
  describe(`${label}: the FileStore contract`, () => {
    let s: ContractSubject;
    beforeAll(async () => {
      s = await make();
    });

    it('lists nothing for a kind never written to', async () => {
      expect(await s.store.list('images')).toEqual([]);
      expect(await s.store.listWithTimes('images')).toEqual([]);
    });

    it('saves under a random 128-bit name with the extension of its type, and reads it back', async () => {
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
      const name = await s.store.save('proofs', bytes, 'image/png');
      expect(name).toMatch(/^[0-9a-f]{32}\.png$/);
      expect(await s.store.read('proofs', name)).toEqual({ bytes, contentType: 'image/png' });
      expect(await s.store.list('proofs')).toContain(name);
      expect(await s.exists(`proofs/${name}`)).toBe(true);
      // uploads are staged on the local disk; a save leaves nothing there
      expect(await s.store.listTemp()).toEqual([]);
    });

    it('keeps a larger file byte for byte', async () => {
      const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
      const name = await s.store.save('proofs', bytes, 'image/jpeg');
      const read = await s.store.read('proofs', name);
      expect(read?.bytes.equals(bytes)).toBe(true);
      await s.store.remove('proofs', name);
    });

    it.each([
      ['image/jpeg', 'jpg'],
      ['image/x-icon', 'ico'],
      ['image/webp', 'webp'],
    ] as const)('records %s as .%s', async (type, ext) => {
      const name = await s.store.save('images', Buffer.from('x'), type);
      expect(name.endsWith(`.${ext}`)).toBe(true);
      expect((await s.store.read('images', name))?.contentType).toBe(type);
    });

    it('keeps kinds apart', async () => {
      const name = await s.store.save('images', Buffer.from('public'), 'image/png');
      expect(await s.store.read('proofs', name)).toBeNull();
      expect(await s.store.list('proofs')).not.toContain(name);
      expect(await s.store.list('images')).toContain(name);
    });

    it('never gives two saves the same name', async () => {
      const names = await Promise.all(
        Array.from({ length: 20 }, () => s.store.save('proofs', Buffer.from('x'), 'image/png')),
      );
      expect(new Set(names).size).toBe(20);
    });

    it('removes a file, and a missing one quietly', async () => {
      const name = await s.store.save('proofs', Buffer.from('x'), 'image/png');
      await s.store.remove('proofs', name);
      await s.store.remove('proofs', name);
      expect(await s.store.read('proofs', name)).toBeNull();
      expect(await s.store.list('proofs')).not.toContain(name);
      expect(await s.exists(`proofs/${name}`)).toBe(false);
    });

    it('reads null for a well-formed name that was never stored', async () => {
      expect(await s.store.read('proofs', `${'0'.repeat(32)}.png`)).toBeNull();
      expect(await s.store.read('images', `${'f'.repeat(32)}.webp`)).toBeNull();
    });

    it('lists sorted names with their last change', async () => {
      const before = Date.now();
      const saved = [
        await s.store.save('proofs', Buffer.from('a'), 'image/png'),
        await s.store.save('proofs', Buffer.from('b'), 'image/webp'),
      ];
      const names = await s.store.list('proofs');
      expect(names).toEqual([...names].sort());
      const timed = await s.store.listWithTimes('proofs');
      expect(timed.map((f) => f.name)).toEqual(names);
      for (const name of saved) {
        const modified = timed.find((f) => f.name === name)?.modified;
        expect(modified).toBeInstanceOf(Date);
        // S3's LastModified has whole seconds
        expect(modified!.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
        expect(modified!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      }
    });

    it('lists only names it could have made, whatever else is there', async () => {
      await s.plant('proofs/notes.txt', Buffer.from('by hand'));
      await s.plant(`proofs/${'A'.repeat(32)}.png`, Buffer.from('upper case'));
      const names = await s.store.list('proofs');
      expect(names.length).toBeGreaterThan(0);
      expect(names.every(isStoredName)).toBe(true);
      expect((await s.store.listWithTimes('proofs')).every((f) => isStoredName(f.name))).toBe(true);
    });

    it.each([
      ['../secret.key', 'secret.key'],
      ['..', null],
      ['a.png', 'proofs/a.png'],
      [`${'a'.repeat(32)}.svg`, `proofs/${'a'.repeat(32)}.svg`],
      [`${'A'.repeat(32)}.png`, `proofs/${'A'.repeat(32)}.png`],
      [`${'a'.repeat(32)}.png/x`, null],
      [`${'a'.repeat(32)}.png.exe`, `proofs/${'a'.repeat(32)}.png.exe`],
    ])('never lets the bad name %s reach the store', async (name, target) => {
      expect(isStoredName(name)).toBe(false);
      if (target) await s.plant(target, Buffer.from('not for you'));
      expect(await s.store.read('proofs', name)).toBeNull();
      await s.store.remove('proofs', name);
      if (target) expect(await s.exists(target)).toBe(true);
    });
  });
}
