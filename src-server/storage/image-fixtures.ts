// Test-only builders of real image files (imported by tests, never by the server).
import { crc32 } from 'node:zlib';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** RGBA pixels where every pixel differs, so rotations can be checked. */
export function gradient(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 40) % 256;
      data[i + 1] = (y * 40) % 256;
      data[i + 2] = 128;
      data[i + 3] = 255;
    }
  }
  return data;
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

/**
 * A real PNG; `text` adds a tEXt chunk before the image data, `padTo` a private chunk
 * that makes the file exactly that many bytes.
 */
export function pngFile(width = 8, height = 6, options: { text?: string; padTo?: number } = {}): Buffer {
  const png = new PNG({ width, height });
  png.data = gradient(width, height);
  const plain = PNG.sync.write(png);
  const ihdrEnd = 8 + 25;
  const extra: Buffer[] = [];
  if (options.text) extra.push(chunk('tEXt', Buffer.from(`Comment\0${options.text}`, 'latin1')));
  let file = Buffer.concat([plain.subarray(0, ihdrEnd), ...extra, plain.subarray(ihdrEnd)]);
  if (options.padTo !== undefined) {
    const padding = options.padTo - file.length - 12;
    if (padding < 0) throw new Error('padTo is smaller than the image');
    file = Buffer.concat([
      file.subarray(0, ihdrEnd),
      chunk('prVt', Buffer.alloc(padding, 0x41)),
      file.subarray(ihdrEnd),
    ]);
  }
  return file;
}

/** A real baseline JPEG from jpeg-js. */
export function jpegFile(width = 8, height = 6): Buffer {
  return jpeg.encode({ data: gradient(width, height), width, height }, 90).data;
}

/** An EXIF block (APP1) with an orientation, a camera make and a GPS position. */
export function exifSegment(options: { orientation?: number; make?: string } = {}): Buffer {
  const make = Buffer.from(`${options.make ?? 'SecretCam'}\0`, 'latin1');
  const tiff = Buffer.alloc(8 + 42 + make.length + 30 + 24);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  let at = 8;
  const entry = (tag: number, type: number, count: number, value: (b: Buffer, o: number) => void) => {
    tiff.writeUInt16BE(tag, at);
    tiff.writeUInt16BE(type, at + 2);
    tiff.writeUInt32BE(count, at + 4);
    value(tiff, at + 8);
    at += 12;
  };
  const makeAt = 8 + 42;
  const gpsAt = makeAt + make.length;
  const latAt = gpsAt + 30;
  tiff.writeUInt16BE(3, at);
  at += 2;
  entry(0x0112, 3, 1, (b, o) => b.writeUInt16BE(options.orientation ?? 1, o));
  entry(0x010f, 2, make.length, (b, o) => b.writeUInt32BE(makeAt, o));
  entry(0x8825, 4, 1, (b, o) => b.writeUInt32BE(gpsAt, o));
  tiff.writeUInt32BE(0, at);
  make.copy(tiff, makeAt);
  at = gpsAt;
  tiff.writeUInt16BE(2, at);
  at += 2;
  entry(0x0001, 2, 2, (b, o) => b.write('N\0', o, 'latin1'));
  entry(0x0002, 5, 3, (b, o) => b.writeUInt32BE(latAt, o));
  tiff.writeUInt32BE(0, at);
  [41, 1, 0, 1, 0, 1].forEach((v, i) => {
    tiff.writeUInt32BE(v, latAt + i * 4);
  });
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** A jpeg-js JPEG with an EXIF block (GPS, camera make, orientation) inserted after SOI. */
export function jpegWithExif(
  width = 8,
  height = 6,
  options: { orientation?: number; make?: string } = {},
): Buffer {
  const plain = jpegFile(width, height);
  return Buffer.concat([plain.subarray(0, 2), exifSegment(options), plain.subarray(2)]);
}

/** The smallest GIF. */
export const GIF_FILE = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const SVG_FILE = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);

/** Whether `needle` occurs in `hay`. */
export function contains(hay: Uint8Array, needle: string): boolean {
  return Buffer.from(hay).includes(Buffer.from(needle, 'latin1'));
}

/** A PNG of only its header and the given image data: the dimensions say what they like. */
export function pngHeaderOnly(
  width: number,
  height: number,
  interlaced = false,
  idat = Buffer.alloc(0),
): Buffer {
  const png = pngFile(1, 1);
  const ihdr = Buffer.from(png.subarray(0, 33));
  ihdr.writeUInt32BE(width, 16);
  ihdr.writeUInt32BE(height, 20);
  ihdr[28] = interlaced ? 1 : 0;
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body, Buffer.alloc(4)]);
  };
  return Buffer.concat([ihdr, chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** A one-image ICO around a 16 x 16 PNG. */
export function icoFile(): Buffer {
  const png = pngFile(16, 16);
  const dir = Buffer.alloc(6 + 16);
  dir.writeUInt16LE(1, 2);
  dir.writeUInt16LE(1, 4);
  dir[6] = 16;
  dir[7] = 16;
  dir.writeUInt16LE(1, 10);
  dir.writeUInt16LE(32, 12);
  dir.writeUInt32LE(png.length, 14);
  dir.writeUInt32LE(dir.length, 18);
  return Buffer.concat([dir, png]);
}
