import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { distanceFrom, hammingDistance } from '../features/fraud/fingerprint-bands';
import { screenshot } from '../testing/screenshots';
import { proofDerivatives, proofFingerprint, sanitizeProof } from './image';

/** Copies of a screenshot as they reach us again: re-encoded, resized, cropped, recoloured. */
const COPIES: [string, (png: Buffer) => Promise<Buffer>][] = [
  ['re-encoded as a JPEG of quality 60', (png) => sharp(png).jpeg({ quality: 60 }).toBuffer()],
  ['resized to 75 %', (png) => sharp(png).resize(292).png().toBuffer()],
  ['resized to 150 % (a denser screen)', (png) => sharp(png).resize(585).jpeg({ quality: 85 }).toBuffer()],
  [
    'cropped by 2 % (the status bar) and 1 % of each side',
    (png) => sharp(png).extract({ left: 4, top: 17, width: 382, height: 827 }).png().toBuffer(),
  ],
  [
    'lightly recoloured (brighter, less saturated)',
    (png) => sharp(png).modulate({ brightness: 1.06, saturation: 0.85 }).png().toBuffer(),
  ],
];

/** Two proofs closer than this many bits (of 64) count as the same picture. */
const SAME = 12;

describe('the proof fingerprint (64-bit pHash)', () => {
  it('is 16 hex digits and the same for the same pixels', async () => {
    const png = await screenshot(1);
    const hash = await proofFingerprint(png);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(await proofFingerprint(await sharp(png).png({ compressionLevel: 9 }).toBuffer())).toBe(hash);
    expect(hammingDistance(hash, hash)).toBe(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
  });

  it('counts the bits two fingerprints differ in, from either helper, as a bit-by-bit count does', () => {
    const bitByBit = (a: string, b: string) => {
      let n = 0;
      for (let i = 0; i < a.length; i++) {
        const x = Number.parseInt(a[i], 16) ^ Number.parseInt(b[i], 16);
        for (let bit = 0; bit < 4; bit++) n += (x >> bit) & 1;
      }
      return n;
    };
    const hex = (digits: number) => randomBytes(digits / 2).toString('hex');
    const cases: [string, string][] = [
      ['0000000000000000', 'ffffffffffffffff'],
      ['8000000000000001', '0000000000000000'],
      ['ffffffff00000000', '00000000ffffffff'],
    ];
    for (let i = 0; i < 500; i++) cases.push([hex(16), hex(16)]);
    for (const [a, b] of cases) {
      expect(hammingDistance(a, b)).toBe(bitByBit(a, b));
      expect(distanceFrom(a)(b)).toBe(bitByBit(a, b));
    }
    for (let i = 0; i < 100; i++) {
      const [a, b] = [hex(64), hex(64)];
      expect(hammingDistance(a, b)).toBe(bitByBit(a, b));
    }
  });

  it('keeps copies within a few bits of their original, and different screenshots apart', async () => {
    const SEEDS = 60;
    const originals: string[] = [];
    const table = new Map<string, number[]>(COPIES.map(([name]) => [name, []]));
    for (let seed = 1; seed <= SEEDS; seed++) {
      const png = await screenshot(seed);
      const hash = await proofFingerprint(png);
      originals.push(hash);
      for (const [name, copy] of COPIES) {
        table.get(name)!.push(hammingDistance(hash, await proofFingerprint(await copy(png))));
      }
    }
    let pairs = 0;
    let falseMatches = 0;
    let closest = 64;
    for (let i = 0; i < SEEDS; i++) {
      for (let j = i + 1; j < SEEDS; j++) {
        const d = hammingDistance(originals[i], originals[j]);
        pairs++;
        closest = Math.min(closest, d);
        if (d < SAME) falseMatches++;
      }
    }
    const lines = [...table].map(([name, ds]) => {
      const caught = ds.filter((d) => d < SAME).length;
      return `${name}: caught ${caught}/${ds.length}, bits max ${Math.max(...ds)}, mean ${(ds.reduce((a, b) => a + b, 0) / ds.length).toFixed(1)}`;
    });
    console.log(
      `proof fingerprints over ${SEEDS} generated screenshots (same when < ${SAME} bits):\n  ${lines.join('\n  ')}\n  different screenshots: ${falseMatches} of ${pairs} pairs within ${SAME} bits (closest ${closest})`,
    );
    for (const [, ds] of table)
      expect(ds.filter((d) => d < SAME).length / ds.length).toBeGreaterThanOrEqual(0.95);
    expect(falseMatches / pairs).toBeLessThan(0.01);
    // 60 screenshots and their copies through the image library: a minute was not enough while
    // the browser and fault suites shared the machine's two cores
  }, 180_000);
});

describe("an upload's proof pipeline (sanitizeProof: two streaming pipelines, no full-size bitmap)", () => {
  const allow = { allow: ['png', 'jpeg'] as const };

  it('gives the thumbnail and fingerprints that the backfill makes from the stored bytes', async () => {
    for (const seed of [3, 4]) {
      const png = await screenshot(seed);
      const proof = await sanitizeProof(png, allow);
      const later = await proofDerivatives(proof.bytes);
      expect({ hash: later.hash, print: later.print }).toEqual({ hash: proof.hash, print: proof.print });
      expect(later.thumbnail.equals(proof.thumbnail)).toBe(true);
      expect(proof.hash).toBe(await proofFingerprint(png));
    }
  });

  it('fingerprints an opaque RGBA screenshot as the same pixels without alpha', async () => {
    const rgb = await screenshot(5);
    const rgba = await sharp(rgb).ensureAlpha().png().toBuffer();
    expect((await sharp(rgba).metadata()).channels).toBe(4);
    const [a, b] = [await sanitizeProof(rgb, allow), await sanitizeProof(rgba, allow)];
    expect({ hash: b.hash, print: b.print }).toEqual({ hash: a.hash, print: a.print });
    // the proof itself keeps its alpha channel: only the thumbnail is put on white
    expect((await sharp(b.bytes).metadata()).channels).toBe(4);
  });

  it('puts a transparent proof on white for its thumbnail', async () => {
    const half = await sharp({
      create: { width: 200, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: { create: { width: 200, height: 200, channels: 4, background: '#204080' } },
          top: 0,
          left: 0,
        },
      ])
      .png()
      .toBuffer();
    const proof = await sanitizeProof(half, allow);
    const { data, info } = await sharp(proof.thumbnail).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ];
    expect(Math.min(...at(Math.floor(info.width / 2), info.height - 5))).toBeGreaterThan(245);
    expect(at(Math.floor(info.width / 2), 5)[2]).toBeGreaterThan(at(Math.floor(info.width / 2), 5)[0] + 50);
  });
});
