import { ImageError } from './image-error';

const PNG_START = [0x89, 0x50, 0x4e, 0x47];
const MAX_ENTRIES = 32;

/**
 * The exact bytes of a BMP entry (header, palette, colour and mask rows), or null when its
 * header is not a plain uncompressed bitmap of at most 256 x 256.
 */
function bitmapBytes(entry: Uint8Array): Uint8Array | null {
  if (entry.length < 40) return null;
  const view = new DataView(entry.buffer, entry.byteOffset, entry.byteLength);
  if (view.getUint32(0, true) !== 40) return null;
  const width = view.getInt32(4, true);
  const height = Math.abs(view.getInt32(8, true)) / 2;
  const bits = view.getUint16(14, true);
  const compression = view.getUint32(16, true);
  if (width < 1 || width > 256 || !Number.isInteger(height) || height < 1 || height > 256) return null;
  if (![1, 4, 8, 24, 32].includes(bits) || (compression !== 0 && compression !== 3)) return null;
  const colours = view.getUint32(32, true);
  const palette = bits <= 8 ? (colours || 2 ** bits) * 4 : compression === 3 ? 12 : 0;
  if (bits <= 8 && colours > 2 ** bits) return null;
  const colourRows = (((width * bits + 31) >> 5) << 2) * height;
  const maskRows = (((width + 31) >> 5) << 2) * height;
  const size = 40 + palette + colourRows + maskRows;
  if (size > entry.length) return null;
  const out = new Uint8Array(entry.subarray(0, size));
  // resolution fields and the image-size hint carry nothing an icon needs
  new DataView(out.buffer).setUint32(20, 0, true);
  new DataView(out.buffer).setUint32(24, 0, true);
  new DataView(out.buffer).setUint32(28, 0, true);
  return out;
}

/**
 * Rebuilds an ICO from its images alone: PNG entries re-encoded through `reencodePng`,
 * bitmap entries copied to their exact computed size. Bytes between or after the entries
 * are left behind. Returns the new file and the size of its largest image.
 */
export async function sanitizeIco(
  bytes: Uint8Array,
  reencodePng: (png: Uint8Array) => Promise<Uint8Array>,
): Promise<{ bytes: Buffer; width: number; height: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 6 || view.getUint16(0, true) !== 0 || view.getUint16(2, true) !== 1) {
    throw new ImageError('type');
  }
  const count = view.getUint16(4, true);
  if (count < 1 || count > MAX_ENTRIES || 6 + count * 16 > bytes.length) throw new ImageError('unreadable');
  const images: { dir: Uint8Array; data: Uint8Array }[] = [];
  let width = 0;
  let height = 0;
  for (let n = 0; n < count; n++) {
    const at = 6 + n * 16;
    const size = view.getUint32(at + 8, true);
    const offset = view.getUint32(at + 12, true);
    if (size < 8 || offset + size > bytes.length) throw new ImageError('unreadable');
    const entry = bytes.subarray(offset, offset + size);
    const isPng = PNG_START.every((b, i) => entry[i] === b);
    let data: Uint8Array | null;
    if (isPng) {
      try {
        data = await reencodePng(entry);
      } catch (err) {
        throw err instanceof ImageError ? err : new ImageError('unreadable');
      }
    } else data = bitmapBytes(entry);
    if (!data) throw new ImageError('unreadable');
    images.push({ dir: new Uint8Array(bytes.subarray(at, at + 16)), data });
    width = Math.max(width, bytes[at] || 256);
    height = Math.max(height, bytes[at + 1] || 256);
  }
  const total = 6 + count * 16 + images.reduce((sum, image) => sum + image.data.length, 0);
  const out = Buffer.alloc(total);
  out.writeUInt16LE(0, 0);
  out.writeUInt16LE(1, 2);
  out.writeUInt16LE(count, 4);
  let offset = 6 + count * 16;
  images.forEach((image, n) => {
    const at = 6 + n * 16;
    out.set(image.dir, at);
    out.writeUInt8(0, at + 3);
    out.writeUInt32LE(image.data.length, at + 8);
    out.writeUInt32LE(offset, at + 12);
    out.set(image.data, offset);
    offset += image.data.length;
  });
  return { bytes: out, width, height };
}
