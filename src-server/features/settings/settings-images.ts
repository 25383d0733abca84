import { MAX_PROOF_BYTES } from '../../contract/constants';
import type { SettingsDto } from '../../contract/types';
import type { AppDeps } from '../../deps';
import { type AppError, fail } from '../../http/app-error';
import { fileStoreFor } from '../../storage/file-store';
import { ImageError, type ImageFormat, type sanitizeImage, sniffImage } from '../../storage/image';
import { sanitizeImageOffThread } from '../../storage/image-worker';
import { receiveUpload, UploadError } from '../../storage/upload';
import { publicImageUrl } from '../files/file-urls';
import { updateSettings } from './settings.service';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/** The site images an admin uploads: the multipart field and the formats it may have. */
export const SITE_IMAGES = {
  logo: ['png', 'jpeg'],
  favicon: ['png', 'jpeg', 'ico'],
} as const satisfies Record<string, readonly ImageFormat[]>;
export type SiteImage = keyof typeof SITE_IMAGES;

const STORED_PREFIX = publicImageUrl('');

function uploadFailure(err: unknown): AppError | unknown {
  if (!(err instanceof UploadError)) return err;
  if (err.reason === 'too_large') return fail.tooLarge('file_too_large');
  if (err.reason === 'type') return fail.unsupported('file_type');
  return fail.badRequest();
}

function imageFailure(err: unknown, field: SiteImage): AppError | unknown {
  if (!(err instanceof ImageError)) return err;
  if (err.reason === 'too_big') return fail.tooLarge('image_too_big');
  if (err.reason === 'type') return fail.unsupported('file_type');
  return fail.invalid('image_unreadable', field);
}

/** Deletes images this server stored (other URLs are left alone). */
export async function removeStoredImages(
  deps: Pick<AppDeps, 'config'>,
  urls: readonly string[],
): Promise<void> {
  const store = fileStoreFor(deps.config.dataDir);
  for (const url of urls) {
    if (url.startsWith(STORED_PREFIX)) await store.remove('images', url.slice(STORED_PREFIX.length));
  }
}

/**
 * PUT /api/settings/logo and /favicon: the file is streamed in under the file rules (5 MB,
 * judged by its first bytes), re-encoded, stored as a public image, and its URL set as
 * site.logo or site.favicon. The image it replaces is deleted after the change commits.
 */
export async function uploadSiteImage(
  deps: Deps,
  field: SiteImage,
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
): Promise<SettingsDto> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) throw fail.unsupported();
  const formats: readonly ImageFormat[] = SITE_IMAGES[field];
  const store = fileStoreFor(deps.config.dataDir);
  let upload: Awaited<ReturnType<typeof receiveUpload>>;
  try {
    upload = await receiveUpload(store, body, contentType, {
      fileField: field,
      maxFileBytes: MAX_PROOF_BYTES,
      accept: (head) => {
        const format = sniffImage(head);
        return format !== null && formats.includes(format);
      },
    });
  } catch (err) {
    throw uploadFailure(err);
  }
  try {
    if (!upload.file) throw fail.invalid('file_type', field);
    let image: ReturnType<typeof sanitizeImage>;
    try {
      image = await sanitizeImageOffThread(await upload.readFile(), { allow: formats });
    } catch (err) {
      throw imageFailure(err, field);
    }
    const name = await store.save('images', image.bytes, image.contentType);
    const url = publicImageUrl(name);
    let result: Awaited<ReturnType<typeof updateSettings>>;
    try {
      result = await updateSettings(deps, { site: { [field]: url } }, { imagesFromUpload: true });
    } catch (err) {
      await store.remove('images', name);
      throw err;
    }
    await removeStoredImages(deps, result.dropped);
    return result.settings;
  } finally {
    await upload.discard();
  }
}
