// Test-only helpers for the backup, restore and doctor tests (never imported by the server).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Db } from '../db/database';
import { publicImageUrl } from '../features/files/file-urls';
import type { UserRow } from '../features/users/users.repository';
import { makeUser } from '../testing/factories';
import { fund, makePendingSubmission } from '../testing/money-factories';
import type { DataFolder } from './data-folder';
import { LocalFileStore } from './file-store';
import { proofThumbnail } from './image';
import { pngFile } from './image-fixtures';

export interface Seeded {
  users: UserRow[];
  /** Pending submissions per user, each with a stored proof and its WebP thumbnail. */
  submissions: string[][];
}

/**
 * Users with a balance, a profile photo each, `perUser` pending submissions with stored
 * proofs and their thumbnails, and a stored site logo: rows and files the way the features
 * leave them.
 */
export async function seed(db: Db, folder: DataFolder, users: number, perUser: number): Promise<Seeded> {
  const store = new LocalFileStore(folder);
  const out: Seeded = { users: [], submissions: [] };
  for (let i = 0; i < users; i++) {
    const photo = await store.save('images', pngFile(4, 4, { text: `user ${i}` }), 'image/png');
    const user = await makeUser(db, { profile_image: publicImageUrl(photo), name: `Kullanıcı ${i}` });
    await fund(db, user._id, 1_000_000);
    const mine: string[] = [];
    for (let k = 0; k < perUser; k++) {
      const { submissionId } = await makePendingSubmission(db, user._id, { reward: 1000 + k });
      const bytes = pngFile(6, 6, { text: `${i}/${k}` });
      const proof = await store.save('proofs', bytes, 'image/png');
      const thumb = await store.save('proofs', await proofThumbnail(bytes), 'image/webp');
      await db
        .updateTable('submissions')
        .set({ proof_file: proof, proof_thumb: thumb })
        .where('_id', '=', submissionId)
        .execute();
      mine.push(submissionId);
    }
    out.users.push(user);
    out.submissions.push(mine);
  }
  const logo = await store.save('images', pngFile(8, 8, { text: 'logo' }), 'image/png');
  await db
    .insertInto('settings')
    .values({
      key: 'site',
      value: JSON.stringify({ name: 'TaskReward', logo: publicImageUrl(logo) }),
      updated_at: new Date().toISOString(),
    })
    .execute();
  return out;
}

/** Every file under a folder with its sha256, by relative path: equal digests mean an untouched folder. */
export function folderDigest(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(root)) return out;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else
        out[relative(root, full).split(sep).join('/')] = createHash('sha256')
          .update(readFileSync(full))
          .digest('hex');
    }
  };
  walk(root);
  return out;
}
