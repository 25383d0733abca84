import { type ContentPrints, PART_HEX, PARTS, PRINT_HEX } from '../../storage/content-print';

/**
 * The duplicate-proof lookup, multi-index hashing: a proof's 64-bit content hash is cut into
 * four 16-bit bands, each stored in its own indexed column. A new proof is looked up with
 * several probes (its content as it is, and as if it or the stored one had been cropped:
 * storage/content-print.ts). Its own hash is looked up with every band value within two bits
 * (137 a band: any hash within 11 bits shares a band within two; a sticker over the content
 * moves it that far), each other probe with its band values exactly (a probe of the right crop
 * lands within a few bits, measured in duplicate-detection.test.ts): about 150 values in each of
 * four indexed IN lists, a few index ranges at any number of stored proofs.
 * A candidate is then judged on its print, from the probe closest to it (isSamePicture).
 */
export const BANDS = 4;
export const OWN_BAND_RADIUS = 2;
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

/** The four 16-bit bands of a 16-hex-digit hash. */
export function bandsOf(hash: string): [number, number, number, number] {
  return [0, 1, 2, 3].map((b) => Number.parseInt(hash.slice(b * 4, b * 4 + 4), 16)) as [
    number,
    number,
    number,
    number,
  ];
}

/** Every 16-bit value within `radius` (0 to 2) bits of `value`, itself first. */
export function neighbours(value: number, radius: number): number[] {
  const out = [value];
  if (radius >= 1) for (let i = 0; i < 16; i++) out.push(value ^ (1 << i));
  if (radius >= 2) {
    for (let i = 0; i < 16; i++) for (let j = i + 1; j < 16; j++) out.push(value ^ (1 << i) ^ (1 << j));
  }
  return out;
}

/** The values to look up in each band's index for a new proof's probes (the first is its own). */
export function bandLookups(probes: readonly ContentPrints[]): number[][] {
  const sets = [0, 1, 2, 3].map(() => new Set<number>());
  probes.forEach((probe, i) => {
    bandsOf(probe.hash).forEach((v, b) => {
      for (const n of neighbours(v, i === 0 ? OWN_BAND_RADIUS : 0)) sets[b].add(n);
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

/** The candidate is the same picture: judged from the probe whose print comes closest. */
export function isSamePicture(probes: readonly ContentPrints[], candidate: { print: string }): Judgement {
  let best: Judgement | null = null;
  for (const probe of probes) {
    const bits = hammingDistance(probe.print.slice(0, PRINT_HEX), candidate.print.slice(0, PRINT_HEX));
    const parts = PART_NAMES.filter((_, p) => {
      const at = PRINT_HEX + p * PART_HEX;
      return (
        hammingDistance(probe.print.slice(at, at + PART_HEX), candidate.print.slice(at, at + PART_HEX)) <=
        PART_BITS
      );
    });
    const same = bits <= SAME_PRINT_BITS || (bits <= PART_PRINT_BITS && parts.length >= PARTS_NEEDED);
    const similarity = Math.max(0, Math.round(100 * (1 - bits / UNRELATED_BITS)));
    const judged = { same, similarity, parts, bits };
    if (!best || (same && !best.same) || (same === best.same && bits < best.bits)) best = judged;
  }
  return best ?? { same: false, similarity: 0, parts: [], bits: 256 };
}

/** A stored print of the current kind (64 + 6 x 16 hex digits); older ones wait for the backfill. */
export const isContentPrint = (print: string | null): print is string =>
  print !== null && print.length === PRINT_HEX + PARTS * PART_HEX;

/** The duplicate lookup's columns of a stored proof: its print and its hash's four bands. */
export function proofLookupColumns(stored: ContentPrints | null) {
  const bands = stored ? bandsOf(stored.hash) : [null, null, null, null];
  return {
    proof_print: stored?.print ?? null,
    proof_b0: bands[0],
    proof_b1: bands[1],
    proof_b2: bands[2],
    proof_b3: bands[3],
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
