import { fail } from '../errors';
import type { Ticket } from '../work/fair-queue';
import {
  ImageError,
  type ImageFormat,
  type ImageSource,
  type ProofPrints,
  type SanitizedImage,
  sanitizeImage,
  sanitizeProof,
} from './image';
import type { ReceivedUpload } from './upload';

/** A received image form holding its place in the image queue until it is decoded or discarded. */
export interface ImageUpload extends ReceivedUpload {
  ticket: Ticket;
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
