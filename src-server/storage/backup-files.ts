import { join } from 'node:path';
import type { Db } from '../db/database';
import { publicImageUrl } from '../features/files/file-urls';
import type { DataFolder } from './data-folder';
import { type FileKind, isStoredName } from './file-store';

/** A stored file some row names, and which row, in words for an operator. */
export interface FileReference {
  kind: FileKind;
  name: string;
  owner: string;
}

const IMAGE_PREFIX = publicImageUrl('');

/** The stored image name behind a public image URL of this server, or null for any other value. */
function storedImage(url: unknown): string | null {
  if (typeof url !== 'string' || !url.startsWith(IMAGE_PREFIX)) return null;
  const name = url.slice(IMAGE_PREFIX.length);
  return isStoredName(name) ? name : null;
}

/**
 * Every stored file the database names: submissions' proof_file, users' profile_image and the
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
    if (p.proof_file) out.push({ kind: 'proofs', name: p.proof_file, owner: `submission ${p._id}` });
    if (p.proof_thumb) {
      out.push({ kind: 'proofs', name: p.proof_thumb, owner: `submission ${p._id} (thumbnail)` });
    }
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
    if (name) out.push({ kind: 'images', name, owner: `user ${u._id} (profile photo)` });
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
      for (const field of ['logo', 'favicon'] as const) {
        const name = storedImage(field in value ? Reflect.get(value, field) : null);
        if (name) out.push({ kind: 'images', name, owner: `site settings (${field})` });
      }
    }
  }
  return out;
}

/** The path of a stored file inside a data folder, relative ("files/proofs/ab….png") and absolute. */
export function storedFilePath(folder: DataFolder, kind: FileKind, name: string) {
  const relative = `files/${kind}/${name}`;
  return { relative, absolute: join(folder.filesDir, kind, name) };
}
