/** An RGBA image in memory. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The EXIF orientation (1-8) of a JPEG, 1 when it has none. Phones store photos sideways
 * and say so here; re-encoding drops this block, so the pixels must be turned instead.
 */
export function jpegOrientation(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = 2;
  while (i + 4 <= bytes.length && bytes[i] === 0xff) {
    const marker = bytes[i + 1];
    if (marker === 0xda || marker === 0xd9) break;
    const length = view.getUint16(i + 2);
    if (length < 2) break;
    if (marker === 0xe1 && i + 4 + length - 2 <= bytes.length) {
      const found = orientationInExif(view, i + 4, length - 2);
      if (found) return found;
    }
    i += 2 + length;
  }
  return 1;
}

function orientationInExif(view: DataView, start: number, length: number): number | null {
  // "Exif\0\0", then a TIFF header: byte order, 42, offset of the first directory
  if (length < 14 || view.getUint32(start) !== 0x45786966 || view.getUint16(start + 4) !== 0) return null;
  const tiff = start + 6;
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return null;
  const little = order === 0x4949;
  const end = start + length;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  if (ifd + 2 > end) return null;
  const count = view.getUint16(ifd, little);
  for (let n = 0; n < count; n++) {
    const entry = ifd + 2 + n * 12;
    if (entry + 12 > end) return null;
    if (view.getUint16(entry, little) === 0x0112) {
      const value = view.getUint16(entry + 8, little);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** Turns and mirrors the pixels as EXIF orientation `o` asks, so the image displays upright. */
export function applyOrientation(image: RgbaImage, o: number): RgbaImage {
  if (o < 2 || o > 8) return image;
  const { width: w, height: h } = image;
  const aligned = image.data.byteOffset % 4 === 0 ? image.data : image.data.slice();
  const src = new Uint32Array(aligned.buffer, aligned.byteOffset, w * h);
  const swap = o >= 5;
  const W = swap ? h : w;
  const H = swap ? w : h;
  const out = new Uint32Array(W * H);
  for (let dy = 0; dy < H; dy++) {
    for (let dx = 0; dx < W; dx++) {
      let sx: number;
      let sy: number;
      switch (o) {
        case 2:
          sx = w - 1 - dx;
          sy = dy;
          break;
        case 3:
          sx = w - 1 - dx;
          sy = h - 1 - dy;
          break;
        case 4:
          sx = dx;
          sy = h - 1 - dy;
          break;
        case 5:
          sx = dy;
          sy = dx;
          break;
        case 6:
          sx = dy;
          sy = h - 1 - dx;
          break;
        case 7:
          sx = w - 1 - dy;
          sy = h - 1 - dx;
          break;
        default:
          sx = w - 1 - dy;
          sy = dx;
      }
      out[dy * W + dx] = src[sy * w + sx];
    }
  }
  return { width: W, height: H, data: new Uint8Array(out.buffer) };
}
