import { MAX_PROOF_BYTES } from '../../contract/constants';
import { FIELD_MESSAGES } from '../../contract/schemas';
import type { AppDeps } from '../../deps';
import { type AppError, fail } from '../../http/app-error';
import { fileStoreFor } from '../../storage/file-store';
import { ImageError, type sanitizeImage, sniffImage } from '../../storage/image';
import { sanitizeImageOffThread } from '../../storage/image-worker';
import { type ReceivedUpload, receiveUpload, UploadError } from '../../storage/upload';
import { publicImageUrl } from '../files/file-urls';

type Deps = Pick<AppDeps, 'config'>;

const PHOTO_FORMATS = ['png', 'jpeg'] as const;
const STORED_PREFIX = publicImageUrl('');

function uploadFailure(err: unknown): AppError | unknown {
  if (!(err instanceof UploadError)) return err;
  if (err.reason === 'too_large') return fail.tooLarge('file_too_large');
  if (err.reason === 'type') return fail.unsupported('file_type');
  if (err.reason === 'field_too_long') return fail.validation({ _: FIELD_MESSAGES.tooLong });
  return fail.badRequest();
}

/** Streams the multipart form into the temp folder; a wrong or too large photo is refused on the way. */
export async function receiveProfileForm(
  deps: Deps,
  body: ReadableStream<Uint8Array> | null,
  contentType: string,
): Promise<ReceivedUpload> {
  try {
    return await receiveUpload(fileStoreFor(deps.config.dataDir), body, contentType, {
      fileField: 'profileImage',
      maxFileBytes: MAX_PROOF_BYTES,
      accept: (head) => {
        const format = sniffImage(head);
        return format === 'png' || format === 'jpeg';
      },
    });
  } catch (err) {
    throw uploadFailure(err);
  }
}

/**
 * Re-encodes the received photo (dropping EXIF, GPS and anything hidden in it) and stores
 * it durably under a new random name; returns its public URL. Call it outside any transaction.
 */
export async function storeProfilePhoto(deps: Deps, upload: ReceivedUpload): Promise<string> {
  let image: ReturnType<typeof sanitizeImage>;
  try {
    image = await sanitizeImageOffThread(await upload.readFile(), { allow: PHOTO_FORMATS });
  } catch (err) {
    if (!(err instanceof ImageError)) throw err;
    if (err.reason === 'too_big') throw fail.tooLarge('image_too_big');
    if (err.reason === 'type') throw fail.unsupported('file_type');
    throw fail.invalid('image_unreadable', 'profileImage');
  }
  const name = await fileStoreFor(deps.config.dataDir).save('images', image.bytes, image.contentType);
  return publicImageUrl(name);
}

/** Deletes a photo this server stored (a URL of another kind is left alone). */
export async function removeProfilePhoto(deps: Deps, url: string | null): Promise<void> {
  if (!url?.startsWith(STORED_PREFIX)) return;
  await fileStoreFor(deps.config.dataDir).remove('images', url.slice(STORED_PREFIX.length));
}
