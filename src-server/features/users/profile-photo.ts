import type { AppDeps } from '../../deps';
import { type ImageUpload, sanitizeReceivedImage } from '../../storage/received-image';
import { publicImageUrl } from '../files/file-urls';

type Deps = Pick<AppDeps, 'work' | 'files'>;

const PHOTO_FORMATS = ['png', 'jpeg'] as const;
const STORED_PREFIX = publicImageUrl('');

/** The profile form's photo field and the formats it takes. */
export const PROFILE_PHOTO_FORM = { fileField: 'profileImage', formats: PHOTO_FORMATS } as const;

/**
 * Re-encodes the received photo (dropping EXIF, GPS and anything hidden in it) and stores
 * it durably under a new random name; returns its public URL. Call it outside any transaction.
 */
export async function storeProfilePhoto(deps: Deps, upload: ImageUpload): Promise<string> {
  const image = await sanitizeReceivedImage(upload, PHOTO_FORMATS, 'profileImage');
  const name = await deps.files.save('images', image.bytes, image.contentType);
  return publicImageUrl(name);
}

/** Deletes a photo this server stored (a URL of another kind is left alone). */
export async function removeProfilePhoto(deps: Pick<AppDeps, 'files'>, url: string | null): Promise<void> {
  if (!url?.startsWith(STORED_PREFIX)) return;
  await deps.files.remove('images', url.slice(STORED_PREFIX.length));
}
