import { randomBytes } from 'node:crypto';
import { FILES_DIR_NAME } from './data-folder';

/**
 * What a stored file may be called, defined once: the file store writes and lists by it, the
 * files routes and the bucket store refuse every other name, a backup's manifest and a restore
 * accept exactly these paths, and `doctor` compares what is on disk by it. A backup that wrote a
 * thumbnail its own restore refused came from two lists of extensions that drifted apart: add a
 * content type or a kind here and every one of them knows it.
 */

/**
 * What the store keeps: `proofs` are private (served only through a signed URL),
 * `images` are public (profile photos, logo, favicon).
 */
export const FILE_KINDS = ['proofs', 'images'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** The content types the store accepts, with the extension that records them in the name. */
export const STORED_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/x-icon': 'ico',
  'image/webp': 'webp',
} as const;
export type StoredContentType = keyof typeof STORED_TYPES;
export type StoredExtension = (typeof STORED_TYPES)[StoredContentType];

const TYPE_OF_EXT = new Map<string, StoredContentType>(
  Object.entries(STORED_TYPES).map(([type, ext]) => [ext, type as StoredContentType]),
);

/** 128 random bits in hex, and the extension of a stored content type. */
const NAME = new RegExp(`^[0-9a-f]{32}\\.(${[...TYPE_OF_EXT.keys()].join('|')})$`);

/**
 * Every file a row names, by what names it, with the kind it is stored under. `referencedFiles`
 * (backup-files.ts) reports each reference with its role; the backup journey test makes one of
 * each through the real server, so a new role fails there until backup, restore and doctor
 * carry it.
 */
export const FILE_ROLES = {
  proof: 'proofs',
  'proof thumbnail': 'proofs',
  'profile photo': 'images',
  'site logo': 'images',
  'site favicon': 'images',
} as const satisfies Record<string, FileKind>;
export type FileRole = keyof typeof FILE_ROLES;

/** One value for each kind (a backup's counts of files, say). */
export function perKind<T>(value: (kind: FileKind) => T): Record<FileKind, T> {
  return Object.fromEntries(FILE_KINDS.map((kind) => [kind, value(kind)])) as Record<FileKind, T>;
}

export function isFileKind(value: string): value is FileKind {
  return (FILE_KINDS as readonly string[]).includes(value);
}

/** Whether a name could have come from the store; anything else (paths, dots) never reaches the disk. */
export function isStoredName(name: string): boolean {
  return NAME.test(name);
}

/** A fresh name for stored bytes: 128 random bits and the content type's extension. */
export function newStoredName(contentType: StoredContentType): string {
  return `${randomBytes(16).toString('hex')}.${STORED_TYPES[contentType]}`;
}

/** The content type a stored name records (its extension); null for a name the store never makes. */
export function contentTypeOf(name: string): StoredContentType | null {
  return isStoredName(name) ? (TYPE_OF_EXT.get(name.slice(name.lastIndexOf('.') + 1)) ?? null) : null;
}

/** A stored file's path inside a data folder, with `/` on every system ("files/proofs/ab….png"). */
export function storedFileRelativePath(kind: FileKind, name: string): string {
  return `${FILES_DIR_NAME}/${kind}/${name}`;
}

/** The kind and name behind a path storedFileRelativePath makes; null for any other path. */
export function parseStoredFilePath(path: string): { kind: FileKind; name: string } | null {
  const parts = path.split('/');
  if (parts.length !== 3 || parts[0] !== FILES_DIR_NAME) return null;
  const [, kind, name] = parts;
  return isFileKind(kind) && isStoredName(name) ? { kind, name } : null;
}
