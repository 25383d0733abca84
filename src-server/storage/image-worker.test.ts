import { afterAll, describe, expect, it } from 'vitest';
import { ImageError } from './image-error';
import { contains, GIF_FILE, jpegWithExif, pngFile } from './image-fixtures';
import { sanitizeImageOffThread, stopImageWorker } from './image-worker';

afterAll(() => stopImageWorker());

describe('image sanitizing in a worker thread', () => {
  it('re-encodes a PNG and a JPEG off the main thread, dropping the EXIF block', async () => {
    const png = await sanitizeImageOffThread(pngFile(40, 30), { allow: ['png', 'jpeg'] });
    expect(png.format).toBe('png');
    expect([png.width, png.height]).toEqual([40, 30]);
    const jpeg = await sanitizeImageOffThread(jpegWithExif(64, 48), { allow: ['png', 'jpeg'] });
    expect(jpeg.contentType).toBe('image/jpeg');
    expect(contains(jpeg.bytes, 'Exif')).toBe(false);
    expect(contains(jpeg.bytes, 'GPS')).toBe(false);
  });

  it('refuses what the main-thread version refuses, with the same reason', async () => {
    await expect(sanitizeImageOffThread(GIF_FILE, { allow: ['png'] })).rejects.toEqual(
      new ImageError('type'),
    );
    await expect(
      sanitizeImageOffThread(pngFile(100, 100), { allow: ['png'], maxPixels: 50 }),
    ).rejects.toEqual(new ImageError('too_big'));
  });

  it('keeps the event loop free while a large image decodes', async () => {
    const big = jpegWithExif(2400, 1800);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = Date.now();
    await sanitizeImageOffThread(big, { allow: ['jpeg'] });
    clearInterval(timer);
    const elapsed = Date.now() - started;
    // on the main thread the interval could not fire at all during the decode
    expect(ticks).toBeGreaterThan(Math.floor(elapsed / 5 / 4));
  });
});
