import { MAX_PROOF_BYTES } from '@contract/constants';
import { describe, expect, it } from 'vitest';
import { checkProofFile, looksLikeImage } from './proof-check';

describe('the proof file check before upload', () => {
  it('asks for a file when none is chosen', () => {
    expect(checkProofFile(null)).toBe('proof_required');
  });

  it.each([
    ['shot.png', 'image/png'],
    ['photo.JPG', 'image/jpeg'],
    ['photo.jpeg', 'image/jpeg'],
    ['photo.jpeg', ''],
  ])('accepts %s (%s)', (name, type) => {
    expect(checkProofFile({ name, type, size: 1000 })).toBeNull();
  });

  it.each([
    ['notes.txt', 'text/plain'],
    ['anim.gif', 'image/gif'],
    ['vector.svg', 'image/svg+xml'],
    ['shot.png.exe', 'application/octet-stream'],
    ['noext', ''],
    ['fake.png', 'text/plain'],
  ])('refuses %s (%s) as a wrong type', (name, type) => {
    expect(checkProofFile({ name, type, size: 1000 })).toBe('file_type');
  });

  it('accepts exactly 5 MB and refuses one byte more', () => {
    expect(checkProofFile({ name: 'a.png', type: 'image/png', size: MAX_PROOF_BYTES })).toBeNull();
    expect(checkProofFile({ name: 'a.png', type: 'image/png', size: MAX_PROOF_BYTES + 1 })).toBe(
      'file_too_large',
    );
  });

  it('knows PNG and JPEG by their first bytes, and not text', () => {
    expect(looksLikeImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(looksLikeImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);
    expect(looksLikeImage(new TextEncoder().encode('hello there'))).toBe(false);
    expect(looksLikeImage(new Uint8Array([]))).toBe(false);
  });
});
