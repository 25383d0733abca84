import { describe, expect, it } from 'vitest';
import { PART_HEX, PARTS, PRINT_HEX } from '../../storage/content-print';
import {
  type Judgement,
  PART_BITS,
  PART_NAMES,
  PART_PRINT_BITS,
  PARTS_NEEDED,
  pictureJudge,
  SAME_PRINT_BITS,
} from './fingerprint-bands';

/** A fixed sequence of pseudo-random numbers, so a failure can be run again. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LENGTH = PRINT_HEX + PARTS * PART_HEX;

/** The rule written out digit by digit: the reference the fast judge must agree with. */
function judgeByDigits(probes: string[], candidate: string): Judgement {
  const bitsOf = (a: string, b: string) => {
    let n = 0;
    for (let i = 0; i < a.length; i++) {
      const x = Number.parseInt(a[i], 16) ^ Number.parseInt(b[i], 16);
      for (let bit = 0; bit < 4; bit++) n += (x >> bit) & 1;
    }
    return n;
  };
  let best: Judgement | null = null;
  for (const probe of probes) {
    const bits = bitsOf(probe.slice(0, PRINT_HEX), candidate.slice(0, PRINT_HEX));
    const parts = PART_NAMES.filter((_, p) => {
      const at = PRINT_HEX + p * PART_HEX;
      return bitsOf(probe.slice(at, at + PART_HEX), candidate.slice(at, at + PART_HEX)) <= PART_BITS;
    });
    const same = bits <= SAME_PRINT_BITS || (bits <= PART_PRINT_BITS && parts.length >= PARTS_NEEDED);
    const similarity = Math.max(0, Math.round(100 * (1 - bits / 128)));
    const judged = { same, similarity, parts, bits };
    if (!best || (same && !best.same) || (same === best.same && bits < best.bits)) best = judged;
  }
  return best ?? { same: false, similarity: 0, parts: [], bits: 256 };
}

describe('judging a candidate against a new proof’s probes', () => {
  it('agrees with the rule computed digit by digit, near and far, across every branch', () => {
    const next = random(34);
    const hex = () => Array.from({ length: LENGTH }, () => Math.floor(next() * 16).toString(16)).join('');
    /** `print` with about `flips` of its bits flipped, some in the whole print, some in the parts. */
    const near = (print: string, flips: number) => {
      const digits = [...print].map((d) => Number.parseInt(d, 16));
      for (let i = 0; i < flips; i++) {
        const at = Math.floor(next() * LENGTH);
        digits[at] ^= 1 << Math.floor(next() * 4);
      }
      return digits.map((d) => d.toString(16)).join('');
    };
    const seen = { same: 0, differ: 0, byParts: 0 };
    for (let round = 0; round < 300; round++) {
      const own = hex();
      const probes = [own, ...Array.from({ length: 1 + Math.floor(next() * 6) }, () => near(own, 30))];
      const judge = pictureJudge(probes.map((print) => ({ hash: print.slice(0, 16), print })));
      for (const flips of [0, 10, 40, 70, 90, 200]) {
        const candidate = next() < 0.1 ? hex() : near(probes[Math.floor(next() * probes.length)], flips);
        const expected = judgeByDigits(probes, candidate);
        expect(judge(candidate)).toEqual(expected);
        if (expected.same) seen.same++;
        else seen.differ++;
        if (expected.same && expected.bits > SAME_PRINT_BITS) seen.byParts++;
      }
    }
    // every branch of the rule was taken: the same picture, another, and the same by its parts
    expect(seen.same).toBeGreaterThan(50);
    expect(seen.differ).toBeGreaterThan(50);
    expect(seen.byParts).toBeGreaterThan(5);
  });
});
