import { join } from 'node:path';
import type { Db } from '../db/database';
import { publicImageUrl } from '../features/files/file-urls';
import type { DataFolder } from './data-folder';
import {
  FILE_ROLES,
  type FileKind,
  type FileRole,
  isStoredName,
  storedFileRelativePath,
} from './stored-names';

/** A stored file some row names, what names it, and which row, in words for an operator. */
export interface FileReference {
  kind: FileKind;
  role: FileRole;
  name: string;
  owner: string;
}

function reference(role: FileRole, name: string, owner: string): FileReference {
  return { kind: FILE_ROLES[role], role, name, owner };
}

const IMAGE_PREFIX = publicImageUrl('');

/** The stored image name behind a public image URL of this server, or null for any other value. */
function storedImage(url: unknown): string | null {
  if (typeof url !== 'string' || !url.startsWith(IMAGE_PREFIX)) return null;
  const name = url.slice(IMAGE_PREFIX.length);
  return isStoredName(name) ? name : null;
}

/**
 * Every stored file the database names: submissions' proof_file and proof_thumb, users' profile_image and the
 * site settings' logo and favicon when they are URLs of stored images. Backups copy exactly
 * these; the doctor compares them with what is on disk.
 */
export async function referencedFiles(db: Db): Promise<FileReference[]> {
  const out: FileReference[] = [];
  const proofs = await db
    .selectFrom('submissions')
    .select(['_id', 'proof_file', 'proof_thumb'])
    .where('proof_file', 'is not', null)
    .execute();
  for (const p of proofs) {
    if (p.proof_file) out.push(reference('proof', p.proof_file, `submission ${p._id}`));
    if (p.proof_thumb)
      out.push(reference('proof thumbnail', p.proof_thumb, `submission ${p._id} (thumbnail)`));
  }
  out.push(...(await referencedImages(db)));
  return out;
}

/** The stored images the database names: users' profile photos and the site's logo and favicon. */
export async function referencedImages(db: Db): Promise<FileReference[]> {
  const out: FileReference[] = [];
  const users = await db
    .selectFrom('users')
    .select(['_id', 'profile_image'])
    .where('profile_image', 'is not', null)
    .execute();
  for (const u of users) {
    const name = storedImage(u.profile_image);
    if (name) out.push(reference('profile photo', name, `user ${u._id} (profile photo)`));
  }
  const site = await db.selectFrom('settings').select('value').where('key', '=', 'site').executeTakeFirst();
  if (site) {
    let value: unknown = null;
    try {
      value = JSON.parse(site.value);
    } catch {
      // a damaged settings row names no file
    }
    if (typeof value === 'object' && value !== null) {
      for (const [field, role] of [
        ['logo', 'site logo'],
        ['favicon', 'site favicon'],
      ] as const) {
        const name = storedImage(field in value ? Reflect.get(value, field) : null);
        if (name) out.push(reference(role, name, `site settings (${field})`));
      }
    }
  }
  return out;
}

/** The path of a stored file inside a data folder, relative ("files/proofs/ab….png") and absolute. */
export function storedFilePath(folder: DataFolder, kind: FileKind, name: string) {
  return { relative: storedFileRelativePath(kind, name), absolute: join(folder.filesDir, kind, name) };
}
