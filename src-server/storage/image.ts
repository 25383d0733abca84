import { inflateSync } from 'node:zlib';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { applyOrientation, jpegOrientation } from './exif-orientation';
import type { StoredContentType } from './file-store';
import { sanitizeIco } from './ico';
import { ImageError } from './image-error';

export { ImageError };

/** The image formats the store knows, judged by their first bytes. */
export type ImageFormat = 'png' | 'jpeg' | 'ico';

/** Images larger than this many pixels are refused before they are decoded. */
export const MAX_IMAGE_PIXELS = 40_000_000;

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

interface PngHeader {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  interlaced: boolean;
}

function readPngHeader(bytes: Uint8Array): PngHeader | null {
  if (bytes.length < 33) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  return {
    width: view.getUint32(16),
    height: view.getUint32(20),
    depth: bytes[24],
    colorType: bytes[25],
    interlaced: bytes[28] === 1,
  };
}

/** Width and height from a JPEG's frame header (SOFn), without decoding. */
function readJpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1];
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // no frame header before the data
    const length = (bytes[i + 2] << 8) | bytes[i + 3];
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (i + 9 > bytes.length) return null;
      return { height: (bytes[i + 5] << 8) | bytes[i + 6], width: (bytes[i + 7] << 8) | bytes[i + 8] };
    }
    i += 2 + length;
  }
  return null;
}

/** Width and height read from the header only, or null when the header is damaged. */
export function imageSize(bytes: Uint8Array, format: ImageFormat): { width: number; height: number } | null {
  if (format === 'png') return readPngHeader(bytes);
  if (format === 'jpeg') return readJpegSize(bytes);
  return null;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/**
 * pngjs bounds the inflated size of plain PNGs by their dimensions, but not of interlaced
 * ones: inflate those here first with the exact size as a cap, so a zip bomb stops early.
 */
function checkInterlacedSize(bytes: Uint8Array, header: PngHeader): void {
  const bits = (CHANNELS[header.colorType] ?? 4) * header.depth;
  let expected = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = Math.ceil((header.width - x0) / dx);
    const h = Math.ceil((header.height - y0) / dy);
    if (w > 0 && h > 0) expected += h * (((w * bits + 7) >> 3) + 1);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [];
  for (let i = 8; i + 8 <= bytes.length; ) {
    const length = view.getUint32(i);
    const type = String.fromCharCode(...bytes.subarray(i + 4, i + 8));
    if (i + 12 + length > bytes.length) break;
    if (type === 'IDAT') parts.push(bytes.subarray(i + 8, i + 8 + length));
    i += 12 + length;
  }
  inflateSync(Buffer.concat(parts), { maxOutputLength: Math.max(expected, 1) });
}

function reencodePng(bytes: Uint8Array, maxPixels: number): Decoded {
  const header = readPngHeader(bytes);
  if (!header || header.width === 0 || header.height === 0) throw new ImageError('unreadable');
  if (header.width * header.height > maxPixels) throw new ImageError('too_big');
  let decoded: PNG;
  try {
    if (header.interlaced) checkInterlacedSize(bytes, header);
    decoded = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    throw new ImageError('unreadable');
  }
  // a fresh image from the pixels alone: no text, time, colour profile or unknown chunks
  const out = new PNG({ width: decoded.width, height: decoded.height });
  out.data = Buffer.from(decoded.data);
  return {
    bytes: PNG.sync.write(out, { colorType: 6 }),
    contentType: 'image/png',
    width: decoded.width,
    height: decoded.height,
  };
}

function reencodeJpeg(bytes: Uint8Array, maxPixels: number): Decoded {
  const size = readJpegSize(bytes);
  if (!size || size.width === 0 || size.height === 0) throw new ImageError('unreadable');
  if (size.width * size.height > maxPixels) throw new ImageError('too_big');
  let image: { width: number; height: number; data: Uint8Array };
  try {
    image = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: maxPixels / 1_000_000,
      maxMemoryUsageInMB: 1024,
    });
  } catch {
    throw new ImageError('unreadable');
  }
  // the orientation lives in the EXIF block that re-encoding drops: turn the pixels instead
  const upright = applyOrientation(image, jpegOrientation(bytes));
  const encoded = jpeg.encode({ data: upright.data, width: upright.width, height: upright.height }, 90);
  return { bytes: encoded.data, contentType: 'image/jpeg', width: upright.width, height: upright.height };
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
 * in the file are gone. Throws ImageError. CPU-heavy: call it outside any transaction.
 */
export function sanitizeImage(
  bytes: Uint8Array,
  options: { allow: readonly ImageFormat[]; maxPixels?: number },
): SanitizedImage {
  const format = sniffImage(bytes.subarray(0, 16));
  if (!format || !options.allow.includes(format)) throw new ImageError('type');
  const maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS;
  if (format === 'png') return { ...reencodePng(bytes, maxPixels), format };
  if (format === 'jpeg') return { ...reencodeJpeg(bytes, maxPixels), format };
  const ico = sanitizeIco(bytes, (png) => reencodePng(png, maxPixels).bytes);
  return { ...ico, contentType: 'image/x-icon', format };
}
