import type { SettingsDto } from '../../contract/types';
import type { AppDeps } from '../../deps';
import { fail } from '../../errors';
import type { ImageFormat } from '../../storage/image';
import { type ImageUpload, sanitizeReceivedImage } from '../../storage/received-image';
import { publicImageUrl } from '../files/file-urls';
import { updateSettings } from './settings.service';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'work' | 'files'>;

/** The site images an admin uploads: the multipart field and the formats it may have. */
export const SITE_IMAGES = {
  logo: ['png', 'jpeg'],
  favicon: ['png', 'jpeg', 'ico'],
} as const satisfies Record<string, readonly ImageFormat[]>;
export type SiteImage = keyof typeof SITE_IMAGES;

const STORED_PREFIX = publicImageUrl('');

/** Deletes images this server stored (other URLs are left alone). */
export async function removeStoredImages(
  deps: Pick<AppDeps, 'files'>,
  urls: readonly string[],
): Promise<void> {
  const store = deps.files;
  for (const url of urls) {
    if (url.startsWith(STORED_PREFIX)) await store.remove('images', url.slice(STORED_PREFIX.length));
  }
}

/** The upload form of a site image: its field and the formats it takes. */
export function siteImageForm(field: SiteImage): { fileField: SiteImage; formats: readonly ImageFormat[] } {
  return { fileField: field, formats: SITE_IMAGES[field] };
}

/**
 * PUT /api/settings/logo and /favicon, once the route has streamed the file in under the file
 * rules (5 MB, judged by its first bytes): re-encoded, stored as a public image, and its URL set
 * as site.logo or site.favicon. The image it replaces is deleted after the change commits.
 */
export async function uploadSiteImage(
  deps: Deps,
  adminId: string,
  field: SiteImage,
  upload: ImageUpload,
): Promise<SettingsDto> {
  const formats: readonly ImageFormat[] = SITE_IMAGES[field];
  const store = deps.files;
  if (!upload.file) throw fail.invalid('image_required', field);
  const image = await sanitizeReceivedImage(upload, formats, field);
  const name = await store.save('images', image.bytes, image.contentType);
  const url = publicImageUrl(name);
  let result: Awaited<ReturnType<typeof updateSettings>>;
  try {
    result = await updateSettings(
      deps,
      { site: { [field]: url } },
      {
        imagesFromUpload: true,
        actorId: adminId,
        action: field === 'logo' ? 'settings.logo' : 'settings.favicon',
      },
    );
  } catch (err) {
    await store.remove('images', name);
    throw err;
  }
  await removeStoredImages(deps, result.dropped);
  return result.settings;
}
