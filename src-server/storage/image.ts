import { open, readFile } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { type ContentPrints, probesOf } from './content-print';
import type { StoredContentType } from './file-store';
import { sanitizeIco } from './ico';
import { ImageError } from './image-error';

export { ImageError };

/** The image formats the store knows, judged by their first bytes. */
export type ImageFormat = 'png' | 'jpeg' | 'ico';

/**
 * Images larger than this many pixels are refused from their header, before they are decoded.
 * 25 megapixels holds any phone's screenshot (a 6.9-inch phone at 1320 x 2868 is 3.8) and its
 * camera's photo (24 MP); libvips decodes and re-encodes one at the cap in about a second of
 * one core here (measured in docs/decisions.md), where the JavaScript codecs took many.
 */
export const MAX_IMAGE_PIXELS = 25_000_000;

/** How many first bytes sniffImage needs to decide. */
export const SNIFF_BYTES = 8;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The format of a file from its first bytes (its name and declared type do not count). */
export function sniffImage(head: Uint8Array): ImageFormat | null {
  if (head.length >= 8 && PNG_SIGNATURE.every((b, i) => head[i] === b)) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 6 && head[0] === 0 && head[1] === 0 && head[2] === 1 && head[3] === 0) {
    const count = head[4] | (head[5] << 8);
    if (count > 0) return 'ico';
  }
  return null;
}

/**
 * libvips, through sharp, decodes and encodes the images. One image at a time uses
 * one libvips thread: the fair CPU queue (work/expensive-work.ts) already lets one image job
 * run at once on this 2-core machine, so the other core stays with the event loop. Its operation
 * cache is off: every upload is a new image, and the cache would only hold memory.
 */
sharp.concurrency(1);
sharp.cache(false);

/**
 * An image to decode: its bytes, or the path of a local file the server wrote itself (an upload
 * staged in the temp folder), which libvips then reads on its own threads. An upload decoded from
 * its path puts no copy of the file on the JavaScript side: a Buffer of the file per upload (1 MB
 * for a screenshot) lived until V8 collected it, and V8 counts such Buffers only loosely, so tens
 * of megabytes of them waited for a collection (measured in docs/decisions.md "Images on sharp").
 */
export type ImageSource = Uint8Array | string;

/** The first bytes of an image, enough for sniffImage. */
async function headOf(source: ImageSource): Promise<Uint8Array> {
  if (typeof source !== 'string') return source.subarray(0, 16);
  const handle = await open(source, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The sharp options every decode uses: the pixel cap, and a damaged file refused, not guessed at. */
function input(bytes: ImageSource, maxPixels: number) {
  return sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', autoOrient: true });
}

/**
 * Width and height from the file's header alone (sharp reads no pixels for this), refused with
 * `too_big` before anything is decoded when they exceed the cap: a 20,000 x 20,000 PNG of a few
 * hundred bytes costs a header read, not seconds of a core and a gigabyte of memory.
 */
async function checkedSize(bytes: ImageSource, maxPixels: number) {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageError('unreadable');
  }
  const { width, height } = meta;
  if (!width || !height) throw new ImageError('unreadable');
  if (width * height > maxPixels) throw new ImageError('too_big');
  return { width, height };
}

/** The pixels encoded anew in the same format, upright (EXIF orientation applied), no metadata. */
async function reencode(bytes: ImageSource, format: 'png' | 'jpeg', maxPixels: number): Promise<Decoded> {
  await checkedSize(bytes, maxPixels);
  try {
    const image = input(bytes, maxPixels);
    // sharp writes no metadata unless asked (keepMetadata/withMetadata): EXIF, GPS, ICC, XMP,
    // text chunks and anything appended after the image are left behind
    const out =
      format === 'png'
        ? await image.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true })
        : await image.jpeg({ quality: 90, mozjpeg: false }).toBuffer({ resolveWithObject: true });
    return {
      bytes: out.data,
      contentType: format === 'png' ? 'image/png' : 'image/jpeg',
      width: out.info.width,
      height: out.info.height,
    };
  } catch (err) {
    if (err instanceof ImageError) throw err;
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw new ImageError('too_big');
    throw new ImageError('unreadable');
  }
}

interface Decoded {
  bytes: Buffer;
  contentType: StoredContentType;
  width: number;
  height: number;
}

export type SanitizedImage = Decoded & { format: ImageFormat };

/**
 * Judges a file by its first bytes, checks its dimensions from the header, decodes it and
 * encodes the pixels anew, so metadata (EXIF, GPS, comments) and anything appended or hidden
 * in the file are gone. Throws ImageError. libvips works on its own thread: call it outside any
 * transaction, inside the fair CPU queue.
 */
export async function sanitizeImage(
  bytes: ImageSource,
  options: { allow: readonly ImageFormat[]; maxPixels?: number },
): Promise<SanitizedImage> {
  const format = sniffImage(await headOf(bytes));
  if (!format || !options.allow.includes(format)) throw new ImageError('type');
  const maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS;
  if (format === 'png' || format === 'jpeg') return { ...(await reencode(bytes, format, maxPixels)), format };
  // sharp does not read ICO: its PNG entries go through sharp, its bitmaps are copied by size
  const ico = await sanitizeIco(
    typeof bytes === 'string' ? await readFile(bytes) : bytes,
    async (png) => (await reencode(png, 'png', maxPixels)).bytes,
  );
  return { ...ico, contentType: 'image/x-icon', format };
}

/** The long side of a proof's thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 320;

type Raw = { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
const rawInput = (raw: Raw) => ({
  raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels },
});

/** The pixels at most THUMBNAIL_SIZE on their long side (never enlarged), 8 bits per channel. */
function shrink(image: Sharp): Promise<Raw> {
  return image
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true }) as Promise<Raw>;
}

/**
 * What thumbnails and fingerprints are made from: the image on white (an opaque one is
 * unchanged), THUMBNAIL_SIZE on its long side, decoded and shrunk in one streaming pipeline.
 */
function smallOf(bytes: ImageSource, image: Sharp = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })) {
  return shrink(image.flatten({ background: '#ffffff' }));
}

/** The thumbnail and both fingerprints of the thumbnail-sized pixels. */
async function derivativesOf(small: Raw): Promise<{ thumbnail: Buffer } & ProofPrints> {
  const [thumbnail, prints] = await Promise.all([thumbnailOf(small), fingerprintOf(small)]);
  return { thumbnail, ...prints };
}

/** A WebP of the image on white, THUMBNAIL_SIZE on its long side (never enlarged). */
export async function proofThumbnail(bytes: Uint8Array): Promise<Buffer> {
  return thumbnailOf(await smallOf(bytes));
}

function thumbnailOf(small: Raw): Promise<Buffer> {
  return sharp(small.data, rawInput(small)).webp({ quality: 70, effort: 2 }).toBuffer();
}

/**
 * What the review screens and the fraud signals use of a proof, from its sanitized bytes: a
 * small WebP thumbnail (THUMBNAIL_SIZE on its long side, never enlarged) and the proof's
 * fingerprint, both from one decode (the background backfill of older proofs).
 */
export async function proofDerivatives(bytes: Uint8Array): Promise<{ thumbnail: Buffer } & ProofPrints> {
  try {
    return await derivativesOf(await smallOf(bytes));
  } catch (err) {
    if (err instanceof ImageError) throw err;
    throw new ImageError('unreadable');
  }
}

/**
 * An upload's proof: sanitized as sanitizeImage does (the same checks, format and output), and
 * its thumbnail and fingerprint, in two libvips pipelines that run at once on their own
 * threads: the file decoded and encoded anew, and the file decoded and shrunk to thumbnail
 * size on white. Each pipeline streams its pixels, so no full-size bitmap is ever made or
 * handed to JavaScript: a 2.5 MP screenshot decoded once into a bitmap for all three took
 * ~55 ms and put 10 MB of pixels on the heap per upload, freed only when V8 collected them; the
 * two streaming pipelines take ~42 ms together and hold about 1 MB (measured in
 * docs/decisions.md "Images on sharp"). An opaque image gives the same thumbnail pixels and
 * fingerprints either way; a transparent one is shown and fingerprinted on white.
 */
export async function sanitizeProof(
  bytes: ImageSource,
  options: { allow: readonly ('png' | 'jpeg')[]; maxPixels?: number },
): Promise<SanitizedImage & { thumbnail: Buffer } & ProofPrints> {
  const format = sniffImage(await headOf(bytes));
  if ((format !== 'png' && format !== 'jpeg') || !options.allow.includes(format))
    throw new ImageError('type');
  const maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS;
  await checkedSize(bytes, maxPixels);
  try {
    const image = input(bytes, maxPixels);
    const encoded =
      format === 'png' ? image.png({ compressionLevel: 6 }) : image.jpeg({ quality: 90, mozjpeg: false });
    // the thumbnail and the fingerprint are made as soon as the small copy is ready, while the
    // full-size encode still runs (~3 ms less per upload than after it)
    const [out, derived] = await Promise.all([
      encoded.toBuffer({ resolveWithObject: true }),
      smallOf(bytes, input(bytes, maxPixels)).then(derivativesOf),
    ]);
    return {
      ...derived,
      bytes: out.data,
      contentType: format === 'png' ? 'image/png' : 'image/jpeg',
      width: out.info.width,
      height: out.info.height,
      format,
    };
  } catch (err) {
    if (err instanceof ImageError) throw err;
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw new ImageError('too_big');
    throw new ImageError('unreadable');
  }
}

/**
 * A proof's fingerprints (storage/content-print.ts): `hash` and `print` are what it is stored
 * with, `probes` what a new proof is looked up with (the first is hash and print again).
 */
export interface ProofPrints extends ContentPrints {
  probes: ContentPrints[];
}

/**
 * The fingerprint of a proof's content, its status, navigation and app bars left out (see
 * storage/content-print.ts): reached through the 320 px thumbnail size, so the same however
 * the proof was decoded. Compare with hammingDistance.
 */
export async function proofFingerprint(bytes: Uint8Array): Promise<string> {
  return (await fingerprintOf(await smallOf(bytes))).hash;
}

/** The fingerprints of an image's bytes. */
export async function proofPrints(bytes: Uint8Array): Promise<ProofPrints> {
  return fingerprintOf(await smallOf(bytes));
}

/** The fingerprints from the thumbnail-sized pixels (the same for a proof however it was reached). */
async function fingerprintOf(small: Raw): Promise<ProofPrints> {
  const { data, info } = await sharp(small.data, rawInput(small))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const probes = probesOf({ data, width: info.width, height: info.height });
  return { ...probes[0], probes };
}
