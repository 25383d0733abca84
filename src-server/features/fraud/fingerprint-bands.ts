import { type ContentPrints, PART_HEX, PARTS, PRINT_HEX } from '../../storage/content-print';

/**
 * The duplicate-proof lookup, multi-index hashing over the parts of the content: each of the
 * six parts' 64-bit pHashes (the print's last six, storage/content-print.ts) gives one 21-bit
 * key, its bits 1 to 21 (bit 0 is the constant term's, set in nearly every hash), stored in its
 * own indexed column. A sticker, a scribble or an edit changes a part or two and leaves the
 * other parts' keys as they were, where it moved the whole content's hash by up to 20 bits (the
 * reason four 16-bit bands of that hash had to be looked up within two bits each: some 10,000
 * rows read at a million proofs). A 21-bit key holds about half a proof per value at a million
 * uniform proofs, so a lookup reads about as many rows as it sends values.
 * A new proof is looked up with several probes (its content as it is, and as if it or the
 * stored one had been cropped: storage/content-print.ts). Its own keys are looked up within one
 * bit (22 values a key), each other probe's exactly: about 100 values a key, some 600 index
 * seeks and 300 rows in all at a million proofs (measured in duplicate-detection.test.ts for
 * the recall, and by bench/fraud.ts for the time).
 * A candidate is then judged on its print, from the probe closest to it (pictureJudge).
 */
export const BANDS = 6;
export const BAND_BITS = 21;
export const OWN_BAND_RADIUS = 1;
/** The lookup's columns, one a part of the content. */
export const BAND_COLUMNS = ['proof_b0', 'proof_b1', 'proof_b2', 'proof_b3', 'proof_b4', 'proof_b5'] as const;
/** A candidate whose 64-bit hash is further than this from every probe is not read further. */
export const CANDIDATE_HASH_BITS = 20;
/** Within this many bits of 256 on the content print, the same picture. */
export const SAME_PRINT_BITS = 40;
/**
 * Or within this many, when PARTS_NEEDED of the content's six parts are each within PART_BITS of
 * 64: a sticker or a scribble over a part or two moves the whole print further than a copy goes.
 */
export const PART_PRINT_BITS = 72;
export const PART_BITS = 8;
export const PARTS_NEEDED = 4;

/**
 * The lookup keys of a content print (PRINT_HEX + PARTS x PART_HEX hex digits): of each part's
 * hash, bits 1 to 21 (its first six hex digits less the first bit and the last two).
 */
export function bandsOf(print: string): number[] {
  return Array.from({ length: PARTS }, (_, p) => {
    const at = PRINT_HEX + p * PART_HEX;
    return (Number.parseInt(print.slice(at, at + 6), 16) >>> 2) & 0x1fffff;
  });
}

/** Every `bits`-bit value within `radius` (0 to 2) bits of `value`, itself first. */
export function neighbours(value: number, radius: number, bits: number): number[] {
  const out = [value];
  if (radius >= 1) for (let i = 0; i < bits; i++) out.push(value ^ (1 << i));
  if (radius >= 2) {
    for (let i = 0; i < bits; i++) for (let j = i + 1; j < bits; j++) out.push(value ^ (1 << i) ^ (1 << j));
  }
  return out;
}

/** The values to look up in each band's index for a new proof's probes (the first is its own). */
export function bandLookups(probes: readonly ContentPrints[]): number[][] {
  const sets = BAND_COLUMNS.map(() => new Set<number>());
  probes.forEach((probe, i) => {
    if (!isContentPrint(probe.print)) return;
    bandsOf(probe.print).forEach((v, b) => {
      for (const n of neighbours(v, i === 0 ? OWN_BAND_RADIUS : 0, BAND_BITS)) sets[b].add(n);
    });
  });
  return sets.map((s) => [...s]);
}

/** The parts of the content, three rows of two. */
export const PART_NAMES = [
  'top left',
  'top right',
  'middle left',
  'middle right',
  'bottom left',
  'bottom right',
] as const;
export type PartName = (typeof PART_NAMES)[number];

export interface Judgement {
  same: boolean;
  /** 0-100: 100 the same content print, 0 as far apart as two unrelated screenshots */
  similarity: number;
  /** the parts of the content within PART_BITS */
  parts: PartName[];
  /** the bits of 256 the closest probe's print is from the candidate's */
  bits: number;
}

/** Two unrelated screenshots' prints differ in about half their 256 bits. */
const UNRELATED_BITS = 128;

/** A print's 32-bit words (8 hex digits each), read once for all the distances taken from it. */
function printWords(print: string): Uint32Array {
  const words = new Uint32Array(print.length >>> 3);
  for (let i = 0; i < words.length; i++) words[i] = Number.parseInt(print.slice(i * 8, i * 8 + 8), 16);
  return words;
}

/** The print's first words, then each part's two. */
const PRINT_WORDS = PRINT_HEX / 8;
const PART_WORDS = PART_HEX / 8;

/** How many bits words [from, to) of two prints differ in. */
function wordsDistance(a: Uint32Array, b: Uint32Array, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) count += popcount32(a[i] ^ b[i]);
  return count;
}

/**
 * Whether a candidate is the same picture as a new proof, judged from the probe whose print
 * comes closest. The probes' prints are read into words once and each different candidate
 * print once: the duplicate lookup judges up to hundreds of candidates with every probe, and a
 * copy many proofs share brings the same print that many times.
 */
export function pictureJudge(probes: readonly ContentPrints[]): (print: string) => Judgement {
  const probeWords = probes.map((p) => printWords(p.print));
  const judged = new Map<string, Judgement>();
  const partsWithin = (probe: Uint32Array, candidate: Uint32Array) => {
    let within = 0;
    for (let p = 0; p < PARTS; p++) {
      const at = PRINT_WORDS + p * PART_WORDS;
      if (wordsDistance(probe, candidate, at, at + PART_WORDS) <= PART_BITS) within |= 1 << p;
    }
    return within;
  };
  return (print) => {
    const known = judged.get(print);
    if (known) return known;
    const candidate = printWords(print);
    let best: { same: boolean; bits: number; within: number } | null = null;
    for (const probe of probeWords) {
      const bits = wordsDistance(probe, candidate, 0, PRINT_WORDS);
      const within = partsWithin(probe, candidate);
      const same = bits <= SAME_PRINT_BITS || (bits <= PART_PRINT_BITS && bitCount(within) >= PARTS_NEEDED);
      if (!best || (same && !best.same) || (same === best.same && bits < best.bits))
        best = { same, bits, within };
    }
    const judgement: Judgement = best
      ? {
          same: best.same,
          similarity: Math.max(0, Math.round(100 * (1 - best.bits / UNRELATED_BITS))),
          parts: PART_NAMES.filter((_, p) => (best.within & (1 << p)) !== 0),
          bits: best.bits,
        }
      : { same: false, similarity: 0, parts: [], bits: 256 };
    judged.set(print, judgement);
    return judgement;
  };
}

/** How many of the low bits of a small mask are set. */
function bitCount(mask: number): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count++;
  return count;
}

/** A stored print of the current kind (64 + 6 x 16 hex digits); older ones wait for the backfill. */
export const isContentPrint = (print: string | null): print is string =>
  print !== null && print.length === PRINT_HEX + PARTS * PART_HEX;

/** The duplicate lookup's columns of a stored proof: its print and its parts' keys. */
export function proofLookupColumns(stored: ContentPrints | null) {
  const bands: (number | null)[] = stored && isContentPrint(stored.print) ? bandsOf(stored.print) : [];
  return {
    proof_print: stored?.print ?? null,
    proof_b0: bands[0] ?? null,
    proof_b1: bands[1] ?? null,
    proof_b2: bands[2] ?? null,
    proof_b3: bands[3] ?? null,
    proof_b4: bands[4] ?? null,
    proof_b5: bands[5] ?? null,
  };
}

/*
 * Comparing fingerprints is the fraud check's question (storage/image.ts only makes them), so the
 * distances live here, beside the bands and limits they are measured against.
 */

/** How many bits of a 32-bit integer are set (a SWAR count, no loop). */
function popcount32(v: number): number {
  let x = v - ((v >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** How many bits two fingerprints of the same length (hex) differ in. */
export function hammingDistance(a: string, b: string): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 8) {
    count += popcount32(Number.parseInt(a.slice(i, i + 8), 16) ^ Number.parseInt(b.slice(i, i + 8), 16));
  }
  return count;
}

/**
 * hammingDistance from one 64-bit hash (16 hex digits), read once: the duplicate lookup measures
 * thousands of candidates against the same new proof.
 */
export function distanceFrom(hash: string): (other: string) => number {
  const high = Number.parseInt(hash.slice(0, 8), 16);
  const low = Number.parseInt(hash.slice(8, 16), 16);
  return (other) =>
    popcount32(high ^ Number.parseInt(other.slice(0, 8), 16)) +
    popcount32(low ^ Number.parseInt(other.slice(8, 16), 16));
}

/**
 * The fewest bits any of `hashes` is from another hash (16 hex digits each): the band lookup
 * measures every row it reads against all of a new proof's probes, so each row's hash is read
 * once and the probes' once for all.
 */
export function nearestOf(hashes: readonly string[]): (other: string) => number {
  const highs = hashes.map((h) => Number.parseInt(h.slice(0, 8), 16));
  const lows = hashes.map((h) => Number.parseInt(h.slice(8, 16), 16));
  return (other) => {
    const high = Number.parseInt(other.slice(0, 8), 16);
    const low = Number.parseInt(other.slice(8, 16), 16);
    let best = 64;
    for (let i = 0; i < highs.length; i++) {
      const bits = popcount32(highs[i] ^ high) + popcount32(lows[i] ^ low);
      if (bits < best) best = bits;
    }
    return best;
  };
}
