import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { ImageError, sanitizeImage, sanitizeProof, sniffImage } from './image';
import {
  contains,
  GIF_FILE,
  gradient,
  icoFile,
  jpegFile,
  jpegWithExif,
  pngFile,
  pngHeaderOnly,
  SVG_FILE,
} from './image-fixtures';

const proofs = { allow: ['png', 'jpeg'] as const };

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    if (err instanceof ImageError) return err.reason;
    throw err;
  }
  return 'accepted';
}

describe('sniffImage', () => {
  it.each([
    ['a PNG', pngFile(), 'png'],
    ['a JPEG', jpegFile(), 'jpeg'],
    ['an ICO', Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]), 'ico'],
    ['a GIF', GIF_FILE, null],
    ['an SVG', SVG_FILE, null],
    ['text', Buffer.from('hello, this is not an image'), null],
    ['nothing', Buffer.alloc(0), null],
  ])('judges %s by its first bytes', async (_name, bytes, format) => {
    expect(sniffImage(bytes.subarray(0, 16))).toBe(format);
  });
});

describe('sanitizeImage', () => {
  it('re-encodes a PNG from its pixels alone: text chunks and private chunks are gone', async () => {
    const input = pngFile(8, 6, { text: 'GPS 41.0N 29.0E', padTo: 5000 });
    const out = await sanitizeImage(input, proofs);
    expect(out).toMatchObject({ format: 'png', contentType: 'image/png', width: 8, height: 6 });
    expect(contains(out.bytes, 'tEXt')).toBe(false);
    expect(contains(out.bytes, 'GPS')).toBe(false);
    expect(contains(out.bytes, 'prVt')).toBe(false);
    expect(PNG.sync.read(out.bytes).data.equals(gradient(8, 6))).toBe(true);
  });

  it('re-encodes a JPEG so EXIF, the camera make and the GPS position are gone', async () => {
    const input = jpegWithExif(16, 8);
    expect(contains(input, 'Exif')).toBe(true);
    const out = await sanitizeImage(input, proofs);
    expect(out).toMatchObject({ format: 'jpeg', contentType: 'image/jpeg', width: 16, height: 8 });
    expect(contains(out.bytes, 'Exif')).toBe(false);
    expect(contains(out.bytes, 'SecretCam')).toBe(false);
    expect(out.bytes.includes(Buffer.from([0xff, 0xe1]))).toBe(false);
  });

  it.each([
    [1, 16, 8],
    [3, 16, 8],
    [6, 8, 16],
    [8, 8, 16],
  ])('turns the pixels of a JPEG with EXIF orientation %i upright', async (orientation, width, height) => {
    const out = await sanitizeImage(jpegWithExif(16, 8, { orientation }), proofs);
    const decoded = jpeg.decode(out.bytes, { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([width, height]);
  });

  it('puts the top-left pixel where orientation 6 (turn right) says', async () => {
    const input = jpegWithExif(16, 8, { orientation: 6 });
    const out = jpeg.decode((await sanitizeImage(input, proofs)).bytes, { useTArray: true });
    // the source's top-left (dark red, green 0) lands top-right after a quarter turn clockwise
    const topRight = (out.width - 1) * 4;
    expect(out.data[topRight]).toBeLessThan(60);
    expect(out.data[topRight + 1]).toBeLessThan(60);
  });

  it.each([
    ['a GIF', GIF_FILE, 'type'],
    ['an SVG', SVG_FILE, 'type'],
    ['text named .png', Buffer.from('not really a png at all'), 'type'],
    ['an ICO where only PNG and JPEG are allowed', Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0]), 'type'],
    ['a PNG cut short', pngFile(40, 40).subarray(0, 60), 'unreadable'],
    ['a PNG of zero width', pngHeaderOnly(0, 10), 'unreadable'],
    ['a PNG claiming 10000 x 10000 pixels', pngHeaderOnly(10_000, 10_000), 'too_big'],
    ['a JPEG cut before its frame header', jpegFile().subarray(0, 10), 'unreadable'],
  ])('refuses %s', async (_name, bytes, reason) => {
    expect(await refusal(() => sanitizeImage(bytes, proofs))).toBe(reason);
  });

  it('refuses a JPEG whose frame header claims more pixels than the cap, before decoding', async () => {
    const bytes = Buffer.from(jpegFile(8, 8));
    const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
    bytes.writeUInt16BE(9000, sof + 5);
    bytes.writeUInt16BE(9000, sof + 7);
    expect(await refusal(() => sanitizeImage(bytes, proofs))).toBe('too_big');
  });

  it('respects a smaller pixel cap', async () => {
    expect(await refusal(() => sanitizeImage(pngFile(100, 100), { ...proofs, maxPixels: 9999 }))).toBe(
      'too_big',
    );
  });

  it('stops an interlaced PNG whose data inflates beyond its dimensions (a zip bomb)', async () => {
    const bomb = pngHeaderOnly(100, 100, true, deflateSync(Buffer.alloc(50_000_000)));
    expect(await refusal(() => sanitizeImage(bomb, proofs))).toBe('unreadable');
  });

  it('rebuilds an ICO from its images, leaving bytes hidden after them behind', async () => {
    const png = pngFile(16, 16, { text: 'hidden' });
    const bmp = Buffer.alloc(40 + 16 * 16 * 4 + 16 * 4);
    bmp.writeUInt32LE(40, 0);
    bmp.writeInt32LE(16, 4);
    bmp.writeInt32LE(32, 8);
    bmp.writeUInt16LE(1, 12);
    bmp.writeUInt16LE(32, 14);
    const dir = Buffer.alloc(6 + 32);
    dir.writeUInt16LE(1, 2);
    dir.writeUInt16LE(2, 4);
    const entries = [png, bmp];
    let offset = dir.length;
    entries.forEach((data, n) => {
      const at = 6 + n * 16;
      dir[at] = 16;
      dir[at + 1] = 16;
      dir.writeUInt16LE(1, at + 4);
      dir.writeUInt16LE(32, at + 6);
      dir.writeUInt32LE(data.length, at + 8);
      dir.writeUInt32LE(offset, at + 12);
      offset += data.length;
    });
    const ico = Buffer.concat([dir, png, bmp, Buffer.from('<script>trailing secret</script>')]);
    const out = await sanitizeImage(ico, { allow: ['png', 'jpeg', 'ico'] });
    expect(out).toMatchObject({ format: 'ico', contentType: 'image/x-icon', width: 16, height: 16 });
    expect(contains(out.bytes, 'secret')).toBe(false);
    expect(contains(out.bytes, 'hidden')).toBe(false);
    expect(out.bytes.readUInt16LE(4)).toBe(2);
  });
});

describe('an image read from its staged file (the upload routes pass the path, not the bytes)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'taskreward-image-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const staged = (bytes: Uint8Array) => {
    const path = join(dir, `${n++}.part`);
    writeFileSync(path, bytes);
    return path;
  };

  it('gives the same image as the bytes do, metadata gone', async () => {
    const input = pngFile(8, 6, { text: 'GPS 41.0N 29.0E', padTo: 5000 });
    const fromPath = await sanitizeImage(staged(input), proofs);
    const fromBytes = await sanitizeImage(input, proofs);
    expect(fromPath.bytes.equals(fromBytes.bytes)).toBe(true);
    expect(contains(fromPath.bytes, 'GPS')).toBe(false);
    const jpegIn = jpegWithExif(16, 8, { orientation: 6 });
    const jpegOut = await sanitizeImage(staged(jpegIn), proofs);
    expect(jpegOut).toMatchObject({ format: 'jpeg', width: 8, height: 16 });
    expect(contains(jpegOut.bytes, 'SecretCam')).toBe(false);
  });

  it('gives a proof the same bytes, thumbnail and fingerprints', async () => {
    const input = pngFile(300, 200, { text: 'hidden' });
    const fromPath = await sanitizeProof(staged(input), proofs);
    const fromBytes = await sanitizeProof(input, proofs);
    expect(fromPath.bytes.equals(fromBytes.bytes)).toBe(true);
    expect(fromPath.thumbnail.equals(fromBytes.thumbnail)).toBe(true);
    expect([fromPath.hash, fromPath.print]).toEqual([fromBytes.hash, fromBytes.print]);
    expect(contains(fromPath.bytes, 'hidden')).toBe(false);
  });

  it.each([
    ['a GIF', GIF_FILE, 'type'],
    ['an SVG', SVG_FILE, 'type'],
    ['an empty file', Buffer.alloc(0), 'type'],
    ['a PNG cut short', pngFile(40, 40).subarray(0, 60), 'unreadable'],
    ['a PNG claiming 10000 x 10000 pixels', pngHeaderOnly(10_000, 10_000), 'too_big'],
  ])('refuses %s as the bytes are refused', async (_name, bytes, reason) => {
    expect(await refusal(() => sanitizeImage(staged(bytes), proofs))).toBe(reason);
    expect(await refusal(() => sanitizeProof(staged(bytes), proofs))).toBe(reason);
  });

  it('reads an ICO from its file', async () => {
    const ico = Buffer.concat([icoFile(), Buffer.from('trailing secret')]);
    const out = await sanitizeImage(staged(ico), { allow: ['ico'] });
    expect(out).toMatchObject({ format: 'ico', width: 16, height: 16 });
    expect(contains(out.bytes, 'secret')).toBe(false);
  });
});
