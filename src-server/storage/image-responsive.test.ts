import { describe, expect, it } from 'vitest';
import { sanitizeImage } from './image';
import { ImageError } from './image-error';
import { jpegWithExif, pngHeaderOnly } from './image-fixtures';

describe('image sanitizing on sharp', () => {
  it('keeps the event loop free while a large image decodes (libvips works on its own thread)', async () => {
    const big = jpegWithExif(2400, 1800);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = Date.now();
    await sanitizeImage(big, { allow: ['jpeg'] });
    clearInterval(timer);
    const elapsed = Date.now() - started;
    // on the main thread the interval could not fire at all during the decode
    expect(ticks).toBeGreaterThan(Math.floor(elapsed / 5 / 4));
  });

  it('refuses a 20,000 x 20,000 PNG from its header, fast, with the size reason (the pixel cap)', async () => {
    const bytes = pngHeaderOnly(20_000, 20_000);
    expect(bytes.length).toBeLessThan(200);
    const started = performance.now();
    await expect(sanitizeImage(bytes, { allow: ['png'] })).rejects.toEqual(new ImageError('too_big'));
    // a header read: decoding 400 megapixels would take seconds and gigabytes
    expect(performance.now() - started).toBeLessThan(250);
  });
});
