import { MAX_PROOF_BYTES } from '../contract/constants';
import { FIELD_MESSAGES } from '../contract/schemas';
import { fileStoreFor } from '../storage/file-store';
import { ImageError, type ImageFormat, type SanitizedImage, sniffImage } from '../storage/image';
import { sanitizeImageOffThread } from '../storage/image-worker';
import { type ReceivedUpload, receiveUpload, UploadError } from '../storage/upload';
import { fail } from './app-error';

/**
 * Streams a multipart form with one image field into the temp folder under the file rules
 * (5 MB, judged by its first bytes as one of `formats`), refusing on the way with the
 * contract's errors (413 file_too_large, 415 file_type, 422 for an over-long text field).
 */
export async function receiveImageForm(
  dataDir: string,
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
  options: { fileField: string; formats: readonly ImageFormat[]; textField?: string },
): Promise<ReceivedUpload> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) throw fail.unsupported();
  try {
    return await receiveUpload(fileStoreFor(dataDir), body, contentType, {
      fileField: options.fileField,
      maxFileBytes: MAX_PROOF_BYTES,
      accept: (head) => {
        const format = sniffImage(head);
        return format !== null && options.formats.includes(format);
      },
    });
  } catch (err) {
    if (!(err instanceof UploadError)) throw err;
    if (err.reason === 'too_large') throw fail.tooLarge('file_too_large');
    if (err.reason === 'type') throw fail.unsupported('file_type');
    if (err.reason === 'field_too_long')
      throw fail.validation({ [options.textField ?? '_']: FIELD_MESSAGES.tooLong });
    throw fail.badRequest();
  }
}

/**
 * Decodes and re-encodes the received image in the image worker (dropping metadata and
 * anything hidden); 413 image_too_big, 415 file_type or 422 image_unreadable on `field`.
 */
export async function sanitizeReceivedImage(
  upload: ReceivedUpload,
  formats: readonly ImageFormat[],
  field: string,
): Promise<SanitizedImage> {
  try {
    return await sanitizeImageOffThread(await upload.readFile(), { allow: formats });
  } catch (err) {
    if (!(err instanceof ImageError)) throw err;
    if (err.reason === 'too_big') throw fail.tooLarge('image_too_big');
    if (err.reason === 'type') throw fail.unsupported('file_type');
    throw fail.invalid('image_unreadable', field);
  }
}
