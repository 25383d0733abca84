import { describe, expect, it } from 'vitest';
import { isAllowedEntryPath } from './manifest';
import {
  contentTypeOf,
  FILE_KINDS,
  isStoredName,
  newStoredName,
  parseStoredFilePath,
  STORED_TYPES,
  type StoredContentType,
  storedFileRelativePath,
} from './stored-names';

const TYPES = Object.keys(STORED_TYPES) as StoredContentType[];

describe('the one definition of a stored file name', () => {
  it.each(FILE_KINDS.flatMap((kind) => TYPES.map((type) => [kind, type] as const)))(
    'makes a %s name for %s that the store reads back, a backup may hold and a restore accepts',
    (kind, type) => {
      const name = newStoredName(type);
      expect(isStoredName(name)).toBe(true);
      expect(contentTypeOf(name)).toBe(type);
      const path = storedFileRelativePath(kind, name);
      expect(parseStoredFilePath(path)).toEqual({ kind, name });
      expect(isAllowedEntryPath(path)).toBe(true);
    },
  );

  it.each([
    `files/proofs/${'a'.repeat(32)}.gif`,
    `files/other/${'a'.repeat(32)}.png`,
    `files/proofs/${'a'.repeat(31)}.png`,
    `files/proofs/${'A'.repeat(32)}.png`,
    `files/proofs/../${'a'.repeat(32)}.png`,
    `files/proofs/x/${'a'.repeat(32)}.png`,
    `proofs/${'a'.repeat(32)}.png`,
    `./files/proofs/${'a'.repeat(32)}.png`,
    'files/proofs/secret.key',
    'tmp/x.part',
    'server.lock',
  ])('refuses %s, a path the store never makes', (path) => {
    expect(parseStoredFilePath(path)).toBeNull();
    expect(isAllowedEntryPath(path)).toBe(false);
  });

  it('lets an archive hold the database and the secret beside the stored files', () => {
    expect(isAllowedEntryPath('taskreward.db')).toBe(true);
    expect(isAllowedEntryPath('secret.key')).toBe(true);
  });
});
