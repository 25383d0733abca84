import { MAX_PROOF_BYTES } from '../contract/constants';
import { ERROR_MESSAGES } from '../contract/errors';
import { FIELD_MESSAGES } from '../contract/schemas';
import type { AppDeps } from '../deps';
import { fail } from '../errors';
import { fileStoreFor } from '../storage/file-store';
import {
  ImageError,
  type ImageFormat,
  type ImageSource,
  type ProofPrints,
  type SanitizedImage,
  sanitizeImage,
  sanitizeProof,
  sniffImage,
} from '../storage/image';
import { type ReceivedUpload, receiveUpload, UploadError } from '../storage/upload';
import { workKey } from './expensive-work';
import type { Ticket } from './fair-queue';

/** A received image form holding its place in the image queue until it is decoded or discarded. */
export interface ImageUpload extends ReceivedUpload {
  ticket: Ticket;
}

/**
 * Streams a multipart form with one image field into the temp folder under the file rules
 * (5 MB, judged by its first bytes as one of `formats`), refusing on the way with the
 * contract's errors (413 file_too_large, 415 file_type, 422 for an over-long text field, 422
 * image_field when the only file came under another field name).
 * First it takes a place in the image queue for `ownerId` (the signed-in account): an account
 * with two images in flight is refused with 429 before its body is read. Discarding the
 * upload gives the place back.
 */
export async function receiveImageForm(
  deps: Pick<AppDeps, 'config' | 'work'>,
  ownerId: string,
  request: Request,
  options: { fileField: string; formats: readonly ImageFormat[]; textField?: string },
): Promise<ImageUpload> {
  const contentType = request.headers.get('Content-Type') ?? undefined;
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) throw fail.unsupported();
  const ticket = deps.work.cpu.reserve(workKey.user(ownerId));
  try {
    // the body stream is made only now: a request refused before this point leaves its body to
    // the server, which reads and drops it (made and left unread, it would reset the connection)
    const upload = await receiveUpload(fileStoreFor(deps.config), request.body, contentType, {
      fileField: options.fileField,
      maxFileBytes: MAX_PROOF_BYTES,
      accept: (head) => {
        const format = sniffImage(head);
        return format !== null && options.formats.includes(format);
      },
    });
    if (!upload.file && upload.strayFiles.length > 0) {
      // the image came under another name: say which name the route reads
      await upload.discard();
      throw imageFieldError(options.fileField);
    }
    return {
      ...upload,
      ticket,
      discard: async () => {
        ticket.release();
        await upload.discard();
      },
    };
  } catch (err) {
    ticket.release();
    if (!(err instanceof UploadError)) throw err;
    if (err.reason === 'too_large') throw fail.tooLarge('file_too_large');
    if (err.reason === 'type') throw fail.unsupported('file_type');
    if (err.reason === 'field_too_long')
      throw fail.validation({ [options.textField ?? '_']: FIELD_MESSAGES.tooLong });
    throw fail.badRequest();
  }
}

/** 422 image_field: a file was sent, but under another field name than `field`. */
function imageFieldError(field: string) {
  return fail.invalid('image_field', field, ERROR_MESSAGES.image_field.replace('{{field}}', field), {
    field,
  });
}

/**
 * Decodes and re-encodes the received image with sharp (dropping metadata and
 * anything hidden) when its turn in the image queue comes (503 busy when the queue is full);
 * 413 image_too_big, 415 file_type or 422 image_unreadable on `field`. libvips reads the staged
 * file itself, only then, so images waiting their turn hold no buffers.
 */
export function sanitizeReceivedImage(
  upload: ImageUpload,
  formats: readonly ImageFormat[],
  field: string,
): Promise<SanitizedImage> {
  return imageWork(field, () =>
    upload.ticket.run(async () => sanitizeImage(stagedImage(upload), { allow: formats })),
  );
}

/**
 * A proof: sanitized as above, and in the same turn of the queue its thumbnail and fingerprint
 * (storage/image.ts sanitizeProof: two libvips pipelines reading the staged file at once).
 */
export function sanitizeReceivedProof(
  upload: ImageUpload,
  formats: readonly ('png' | 'jpeg')[],
  field: string,
): Promise<SanitizedImage & { thumbnail: Buffer } & ProofPrints> {
  return imageWork(field, () =>
    upload.ticket.run(async () => sanitizeProof(stagedImage(upload), { allow: formats })),
  );
}

/** The staged file's path, which libvips reads itself (no copy of the file in JavaScript). */
function stagedImage(upload: ImageUpload): ImageSource {
  return upload.file ? upload.file.path : Buffer.alloc(0);
}

async function imageWork<T>(field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ImageError)) throw err;
    if (err.reason === 'too_big') throw fail.tooLarge('image_too_big');
    if (err.reason === 'type') throw fail.unsupported('file_type');
    throw fail.invalid('image_unreadable', field);
  }
}
