/**
 * The duplicate-proof lookup, multi-index hashing: a proof's 64-bit hash is cut into
 * four 16-bit bands, each stored in its own indexed column. Two hashes within DUPLICATE_HASH_BITS
 * of each other differ by at most 2 bits in at least one band when they differ by at most 11
 * (four bands of 3 or more would make 12), and the distances of these hashes are even (each has
 * as many ones as zeros among its frequencies), so every band value within BAND_RADIUS bits of
 * the new proof's (137 per band, 548 in all) is looked up in the indexes: a few index ranges, not
 * a scan of every proof. Distances of 12 are found when a band differs by at most 2 bits (most
 * do, measured in duplicate-detection.test.ts).
 * A candidate is a duplicate when its 64-bit hash is within DUPLICATE_HASH_BITS and its 256-bit
 * print within DUPLICATE_PRINT_BITS: the print keeps different screens of one layout apart (the
 * 64-bit hash alone matched 5% of 1,000 generated screenshots to another at 8 bits).
 */
export const BANDS = 4;
export const BAND_RADIUS = 2;
export const DUPLICATE_HASH_BITS = 12;
export const DUPLICATE_PRINT_BITS = 54;
/** A proof stored before prints existed (until the backfill reaches it) matches on its hash alone, closer. */
export const HASH_ONLY_BITS = 6;

/** The four 16-bit bands of a 16-hex-digit hash. */
export function bandsOf(hash: string): [number, number, number, number] {
  return [0, 1, 2, 3].map((b) => Number.parseInt(hash.slice(b * 4, b * 4 + 4), 16)) as [
    number,
    number,
    number,
    number,
  ];
}

/** Every 16-bit value within `radius` bits of `value`, itself first. */
export function neighbours(value: number, radius = BAND_RADIUS): number[] {
  const out = [value];
  if (radius >= 1) for (let i = 0; i < 16; i++) out.push(value ^ (1 << i));
  if (radius >= 2) {
    for (let i = 0; i < 16; i++) for (let j = i + 1; j < 16; j++) out.push(value ^ (1 << i) ^ (1 << j));
  }
  return out;
}

/** The values to look up in each band's index for a hash. */
export function bandLookups(hash: string): number[][] {
  return bandsOf(hash).map((v) => neighbours(v));
}

/** The candidate is the same picture: close on the hash and, where it has one, on the print. */
export function isSamePicture(
  proof: { hash: string; print: string },
  candidate: { hash: string; print: string | null },
): { same: boolean; bits: number } {
  const bits = hammingDistance(proof.hash, candidate.hash);
  if (candidate.print === null) return { same: bits <= HASH_ONLY_BITS, bits };
  if (bits > DUPLICATE_HASH_BITS) return { same: false, bits };
  return { same: hammingDistance(proof.print, candidate.print) <= DUPLICATE_PRINT_BITS, bits };
}

/** The duplicate lookup's columns of a stored proof: its print and its hash's four bands. */
export function proofLookupColumns(stored: { hash: string; print: string } | null) {
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
