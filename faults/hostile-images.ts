// Image bytes for the hostile-input suite: one valid PNG and JPEG for the set-up, and the
// broken ones (wrong bytes, lying headers, truncated data, zip bombs) that every upload
// route must refuse. Every "broken" entry is refused by the decoder itself, so a request
// carrying one can never be a valid write.
import { deflateSync } from 'node:zlib';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export function validPng(width = 8, height = 8, seed = 1): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 31 + seed * 17) & 0xff;
  return PNG.sync.write(png);
}

export function validJpeg(width = 8, height = 8): Buffer {
  const data = Buffer.alloc(width * height * 4, 0x80);
  return Buffer.from(jpeg.encode({ data, width, height }, 80).data);
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer, badCrc = false): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((crc32(Buffer.concat([head.subarray(4), data])) ^ (badCrc ? 1 : 0)) >>> 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number, colorType = 0, interlace = 0): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(width, 0);
  d.writeUInt32BE(height, 4);
  d[8] = 8; // bit depth
  d[9] = colorType;
  d[12] = interlace;
  return chunk('IHDR', d);
}

/**
 * A grayscale PNG of width x height whose IDAT inflates to its full size (a zip bomb of a
 * few tens of KB) but whose last row has an unknown filter type: decoded to the end, then refused.
 */
export function pngBomb(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width + 1) * height);
  raw[(width + 1) * (height - 1)] = 9; // filter types are 0..4
  return Buffer.concat([
    SIGNATURE,
    ihdr(width, height),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An interlaced PNG whose IDAT inflates far beyond what its header allows. */
export function interlacedBomb(): Buffer {
  return Buffer.concat([
    SIGNATURE,
    ihdr(16, 16, 0, 1),
    chunk('IDAT', deflateSync(Buffer.alloc(20_000_000), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG start with a frame header claiming the given size and nothing decodable after it. */
function jpegClaiming(width: number, height: number): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}

export interface BrokenImage {
  label: string;
  bytes: Buffer;
  filename: string;
  type: string;
  /**
   * The image itself decodes (its header and first rows are sound): the pipeline keeps its pixels
   * and drops the rest by re-encoding, so a request with it may succeed.
   */
  decodable?: boolean;
}

/** Files every image route must refuse (415, 413 or 422), whatever else the request holds. */
let brokenCache: BrokenImage[] | undefined;
export function brokenImages(): BrokenImage[] {
  brokenCache ??= makeBrokenImages();
  return brokenCache;
}

function makeBrokenImages(): BrokenImage[] {
  const png = validPng(16, 16);
  const idatEnd = png.indexOf(Buffer.from('IEND')) - 4;
  const badCrc = Buffer.concat([SIGNATURE, ihdr(4, 4), chunk('IDAT', deflateSync(Buffer.alloc(20)), true)]);
  return [
    {
      label: 'text as .png',
      bytes: Buffer.from('just some text, not a picture'),
      filename: 'a.png',
      type: 'image/png',
    },
    {
      label: 'html as .jpg',
      bytes: Buffer.from('<script>alert(1)</script>'),
      filename: 'x.jpg',
      type: 'image/jpeg',
    },
    {
      label: 'svg',
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      filename: 'x.png',
      type: 'image/svg+xml',
    },
    {
      label: 'gif',
      bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      filename: 'x.gif',
      type: 'image/gif',
    },
    {
      label: 'zip as .png',
      bytes: Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1'),
      filename: 'p.png',
      type: 'image/png',
    },
    {
      label: 'exe as .jpg',
      bytes: Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'),
      filename: 'p.jpg',
      type: 'image/jpeg',
    },
    { label: 'png signature only', bytes: SIGNATURE, filename: 'p.png', type: 'image/png' },
    {
      label: 'png signature and garbage',
      bytes: Buffer.concat([SIGNATURE, Buffer.alloc(64, 0x41)]),
      filename: 'p.png',
      type: 'image/png',
    },
    {
      label: 'png truncated in IDAT',
      bytes: png.subarray(0, Math.max(40, idatEnd - 10)),
      filename: 'p.png',
      type: 'image/png',
    },
    { label: 'png with a bad CRC', bytes: badCrc, filename: 'p.png', type: 'image/png' },
    {
      label: 'png 0x0',
      bytes: Buffer.concat([SIGNATURE, ihdr(0, 0), chunk('IEND', Buffer.alloc(0))]),
      filename: 'p.png',
      type: 'image/png',
    },
    {
      label: 'png claiming 100000x100000',
      bytes: Buffer.concat([SIGNATURE, ihdr(100_000, 100_000), chunk('IEND', Buffer.alloc(0))]),
      filename: 'p.png',
      type: 'image/png',
    },
    {
      label: 'png claiming 4294967295x1',
      bytes: Buffer.concat([SIGNATURE, ihdr(0xffffffff, 1), chunk('IEND', Buffer.alloc(0))]),
      filename: 'p.png',
      type: 'image/png',
    },
    {
      label: 'jpeg claiming 65535x65535',
      bytes: jpegClaiming(65535, 65535),
      filename: 'p.jpg',
      type: 'image/jpeg',
    },
    { label: 'jpeg claiming 0x0', bytes: jpegClaiming(0, 0), filename: 'p.jpg', type: 'image/jpeg' },
    {
      label: 'jpeg signature and garbage',
      bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(64, 0x13)]),
      filename: 'p.jpg',
      type: 'image/jpeg',
    },
    {
      label: 'ico header only',
      bytes: Buffer.from([0, 0, 1, 0, 1, 0]),
      filename: 'f.ico',
      type: 'image/x-icon',
    },
    { label: 'empty file', bytes: Buffer.alloc(0), filename: 'p.png', type: 'image/png' },
  ];
}

/** The expensive broken files (decoded in full before they are refused): a few of each per run. */
let bombCache: BrokenImage[] | undefined;
export function bombImages(): BrokenImage[] {
  bombCache ??= [
    { label: 'png bomb 6000x6000', bytes: pngBomb(6000, 6000), filename: 'b.png', type: 'image/png' },
    // libpng decodes the 16x16 picture and stops at its end: the 20 MB of excess IDAT is never
    // inflated (a 486 KB file claiming 500 MB decodes in ~50 ms) and the re-encode drops it
    {
      label: 'interlaced png bomb',
      bytes: interlacedBomb(),
      filename: 'b.png',
      type: 'image/png',
      decodable: true,
    },
  ];
  return bombCache;
}
